/**
 * Whether a reply reassures about sharing: calls the data safe, anonymous or free of risk. A chat must not say so
 * while a privacy check fails or could not run; a model's reply that does is replaced by the offline answer.
 * Deliberately broad: a sentence with such a word and nothing before it that negates or doubts it ("not", "cannot",
 * "whether"...) counts (questions excepted), so a hedge the model words unusually costs an offline answer, never a false reassurance.
 */
const reassuringTerms = /\b(?:safe(?:ly)?|anonymous(?:ly)?|anonymi[sz]ed|risk[- ]free|harmless|privacy[- ]preserving)\b/i
/** Phrases that reassure through a negation of their own. */
const negatedReassurance = /\b(?:no (?:privacy |disclosure |re-?identification )?risks?|cannot be re-?identified|can'?t be re-?identified|not (?:re-?)?identifiable|no personal (?:data|information))\b/i
const doubt = /\b(?:not|never|no|cannot|can't|isn't|aren't|wasn't|won't|neither|nor|without|whether|if|unless|before|until)\b|n't\b/i

const sentences = (text: string): ReadonlyArray<string> => text.split(/(?<=[.!?;:])\s+|\n+/)

/** A question asks; it states nothing ("Is it safe to share?" offered as a follow-up). */
const question = /\?["'”]?\s*$/

export const reassures = (reply: string): boolean =>
  sentences(reply).some((sentence) => {
    if (question.test(sentence)) return false
    if (negatedReassurance.test(sentence)) return true
    const match = reassuringTerms.exec(sentence)
    return match !== null && !doubt.test(sentence.slice(0, match.index))
  })
