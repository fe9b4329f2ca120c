import type { Fact } from "./evaluationFacts.ts"
import type { ChatMessage } from "./ChatModel.ts"

export const systemPrompt = `You explain the evaluation of a synthetic dataset to its owner. The user message holds the
evaluation's figures as JSON (each with a name, a label saying what it measures, and a value) and the owner's
question. Answer only from these figures: never invent a figure, a column or a metric that is not listed, and say so
when the figures cannot answer the question. Cite every figure you use by its name in square brackets right after
it, e.g. "0.62 [weakest_column.1]". Keep the metric names and column names as given. Scores run from 0 to 1 unless the
label says otherwise. On privacy, start from privacy.safe_to_share: when it is false, say that the data is not safe
to share and name every failing check [privacy.failing_checks] and every check that could not run
[privacy.checks_not_run] with what it found; when it is missing, say that these results cannot tell; only when it is
true may you say that it is safe to share by the privacy checks. Then state what the metrics show (real values in
personal columns, exact copies, DCR, membership-inference AUC, whether the generator was differentially private) and
never promise that the data is anonymous. Answer in a few plain sentences, in the language of the question.`

/** The figures and the question: aggregate figures and column names only, never a row or a value of the data. */
export const userMessage = (facts: ReadonlyArray<Fact>, question: string) =>
  JSON.stringify({ figures: facts.map(({ name, label, value }) => ({ name, label, value })), question })

export const chatMessages = (facts: ReadonlyArray<Fact>, question: string): ReadonlyArray<ChatMessage> => [
  { role: "system", content: systemPrompt },
  { role: "user", content: userMessage(facts, question) }
]

/** The figures a model's reply cites: the known names it puts in square brackets, in the facts' order. */
export const citedFigures = (facts: ReadonlyArray<Fact>, reply: string): ReadonlyArray<string> => {
  const bracketed = new Set([...reply.matchAll(/\[([^\]]+)\]/g)].flatMap((match) => match[1]!.split(/\s*,\s*/)))
  return facts.map(({ name }) => name).filter((name) => bracketed.has(name))
}
