import { describe, expect, it } from "@effect/vitest"
import { classifyQuestion, exampleQuestions, type QuestionClass, suggestedQuestions } from "./questionClass.ts"

const cases: ReadonlyArray<readonly [string, QuestionClass]> = [
  ["Which columns are the weakest?", "weakest_columns"],
  ["What are the worst columns?", "weakest_columns"],
  ["Where does the synthetic data differ most from mine?", "weakest_columns"],
  ["Is it safe to share?", "privacy"],
  ["Can I share this with a partner?", "privacy"],
  ["Could someone re-identify a customer from it?", "privacy"],
  ["Does it leak personal data?", "privacy"],
  ["Are there real values of my customers in the output?", "privacy"],
  ["Which identifier columns disclose anything?", "privacy"],
  ["Can an attacker infer a diagnosis from the ZIP code?", "privacy"],
  ["What should I change next?", "improve"],
  ["How do I improve it?", "improve"],
  ["How can I make it safer to share?", "improve"],
  ["How good is it overall?", "overall_quality"],
  ["What is the quality score?", "overall_quality"],
  ["Can I train models on it?", "ml_utility"],
  ["Is it useful for machine learning?", "ml_utility"],
  ["Tell me about it", "summary"],
  ["", "summary"]
]

describe("classifyQuestion", () => {
  it.each(cases)("%s → %s", (question, expected) => {
    expect(classifyQuestion(question)).toBe(expected)
  })

  it("ignores case and matches words, not parts of words", () => {
    expect(classifyQuestion("IS IT SAFE TO SHARE?")).toBe("privacy")
    // "html" contains "ml", but not at a word start.
    expect(classifyQuestion("show me the html")).toBe("summary")
  })

  it("classifies each example question as its own class", () => {
    for (const [questionClass, question] of Object.entries(exampleQuestions)) expect(classifyQuestion(question)).toBe(questionClass)
  })
})

describe("suggestedQuestions", () => {
  it("offers the other classes' examples", () => {
    expect(suggestedQuestions("privacy")).not.toContain(exampleQuestions.privacy)
    expect(suggestedQuestions("privacy")).toHaveLength(4)
    expect(suggestedQuestions("summary")).toHaveLength(5)
  })
})
