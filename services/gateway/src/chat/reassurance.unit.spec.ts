import { describe, expect, it } from "@effect/vitest"
import { reassures } from "./reassurance.ts"

describe("reassures", () => {
  it("catches a reply that calls the data safe, anonymous or free of risk", () => {
    for (const reply of [
      "It is safe to share [privacy.score].",
      "The figures look good. You can share it safely.",
      "The synthetic data is anonymous.",
      "There is no privacy risk here.",
      "Rows cannot be re-identified.",
      "Yes: it is safe.",
      "Is it safe? Yes, it is safe to share."
    ]) expect(reassures(reply)).toBe(true)
  })

  it("lets negations, doubts and questions through", () => {
    for (const reply of [
      "No, it is not safe to share: identifier disclosure fails [privacy.failing_checks].",
      "It isn't safe to share yet.",
      "The metrics cannot prove that the data is anonymous.",
      "Whether it is safe to share cannot be said from these results.",
      "Do not share it before the failing checks pass; the data is unsafe as it stands.",
      'Ask me, for example: "Is it safe to share?"'
    ]) expect(reassures(reply)).toBe(false)
  })
})
