/** The questions the offline explainer knows how to answer; anything else gets a summary. */
export type QuestionClass = "improve" | "privacy" | "weakest_columns" | "ml_utility" | "overall_quality" | "summary"

/**
 * Keywords per class, tried in this order (the first class with a match wins), matched case-insensitively at word
 * starts. The order settles questions that touch two classes: "how do I make it safer to share?" asks what to change
 * (improve before privacy); "which columns leak?" is about privacy (privacy before weakest columns); "how well can
 * a model be trained on the worst columns?" is about the columns (weakest before ML utility).
 */
export const questionKeywords: ReadonlyArray<readonly [QuestionClass, ReadonlyArray<string>]> = [
  ["improve", ["improve", "change", "next step", "what next", "do next", "should i do", "fix", "better", "recommend", "tune", "increase", "raise", "make it", "safer", "reduce"]],
  [
    "privacy",
    [
      "safe", "share", "sharing", "privacy", "private", "re-identif", "reidentif", "identifiab", "identifier", "anonym", "leak",
      "membership", "copies", "copy", "memoris", "memoriz", "gdpr", "personal", "pii", "disclos", "real value", "real people", "dcr",
      "attack", "risk"
    ]
  ],
  ["weakest_columns", ["weak", "worst", "poor", "bad", "lowest", "column", "which field", "problem", "issue", "wrong", "differ"]],
  ["ml_utility", ["ml", "machine learning", "train", "model", "utility", "predict", "classifier", "regression", "tstr", "trtr", "useful"]],
  ["overall_quality", ["overall", "quality", "how good", "good enough", "score", "how well", "how close", "realistic", "accurate", "fidelity"]]
]

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const patterns = questionKeywords.map(([questionClass, words]) =>
  [questionClass, new RegExp(`(^|[^a-z0-9])(${words.map(escape).join("|")})`, "i")] as const
)

/** The class of a user's question by its keywords (see questionKeywords). */
export const classifyQuestion = (message: string): QuestionClass =>
  patterns.find(([, pattern]) => pattern.test(message))?.[0] ?? "summary"

/** One example question per class, offered as follow-ups. */
export const exampleQuestions: Readonly<Record<Exclude<QuestionClass, "summary">, string>> = {
  overall_quality: "How good is this synthetic data overall?",
  weakest_columns: "Which columns are the weakest?",
  privacy: "Is it safe to share?",
  ml_utility: "Can I train models on it?",
  improve: "What should I change next?"
}

/** Follow-ups to the question just answered: the other classes' examples. */
export const suggestedQuestions = (answered: QuestionClass): ReadonlyArray<string> =>
  Object.entries(exampleQuestions).filter(([questionClass]) => questionClass !== answered).map(([, question]) => question)
