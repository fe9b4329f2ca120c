import { beforeAll, describe, expect, it } from "@effect/vitest"
import type { EvaluationForChat } from "./ChatEvaluation.ts"
import { evaluationFacts, type Fact } from "./evaluationFacts.ts"
import { offlineAnswer } from "./offlineAnswer.ts"
import { reassures } from "./reassurance.ts"
import { fixtureEvaluations, type FixtureEvaluations } from "./testing/evaluationFixtures.ts"

let evaluations: FixtureEvaluations
let full: ReadonlyArray<Fact>
let quick: ReadonlyArray<Fact>
beforeAll(async () => {
  evaluations = await fixtureEvaluations()
  full = evaluationFacts({ kind: "full", results: evaluations.full, generator: { type: "ctgan", differentiallyPrivate: false, targetEpsilon: null } })
  quick = evaluationFacts({ kind: "quick", results: evaluations.quick })
})

const value = (facts: ReadonlyArray<Fact>, name: string) => facts.find((fact) => fact.name === name)!.value as number
const two = (figure: number) => figure.toFixed(2)
const percent = (share: number) => `${(share * 100).toFixed(1)} %`

/** Promises a privacy answer must never make (the negated forms it does use, "cannot prove that the data is anonymous", pass). */
const promises = /(?<!(?:that|whether) )\b(?:the data|it|this data) is (?:safe|anonymous|anonymi[sz]ed)\b|(?<!not |no )\bguarantees? anonymity|\bfully anonym|\bcannot be re-?identified\b/i

describe("offlineAnswer", () => {
  it("weakest columns: names the three weakest columns with their metric and score", () => {
    const answer = offlineAnswer(full, "weakest_columns")
    for (const position of [1, 2, 3]) {
      const fact = full.find((candidate) => candidate.name === `weakest_column.${position}`)!
      expect(answer.reply).toContain(`${fact.columns![0]} (${fact.metric} ${two(fact.value as number)})`)
      expect(answer.cited).toContain(fact.name)
    }
    expect(answer.cited).toContain("validity_issue.1")
    expect(answer.reply).toMatch(/BoundaryAdherence of column \w+: \d+ synthetic values outside the real range/)
  })

  it("the promise check catches promises", () => {
    expect("The data is safe to share.").toMatch(promises)
    expect("It is anonymous.").toMatch(promises)
    expect("This guarantees anonymity.").toMatch(promises)
  })

  it("is it safe to share: states exact copies, DCR, MIA AUC and differential privacy, and promises nothing", () => {
    const answer = offlineAnswer(full, "privacy")
    expect(answer.reply).toContain(`${percent(value(full, "privacy.exact_copy_share"))} of the synthetic rows (${value(full, "privacy.exact_copy_rows")}) are exact copies`)
    expect(answer.reply).toContain(`DCR baseline protection is ${two(value(full, "privacy.dcr_baseline_protection"))}`)
    expect(answer.reply).toContain(
      `AUC ${two(value(full, "privacy.mia_auc"))} (95 % interval ${two(value(full, "privacy.mia_auc_low"))} to ${two(value(full, "privacy.mia_auc_high"))}) (0.5 is chance)`
    )
    expect(answer.reply).toContain("not trained with differential privacy")
    expect(answer.reply).toContain("cannot prove that the data is anonymous")
    // The fixture's generator copied rows: the answer says to remove them.
    expect(answer.reply).toContain(`remove the ${value(full, "privacy.exact_copy_rows")} exact copies`)
    expect(answer.reply).toContain(`review or drop the near copies (${percent(value(full, "privacy.near_copy_share"))} of the rows)`)
    expect(answer.reply).not.toMatch(promises)
    expect(answer.cited).toEqual(expect.arrayContaining(["privacy.exact_copy_share", "privacy.dcr_baseline_protection", "privacy.mia_auc", "generator.differentially_private"]))
  })

  it("is it safe to share, without column roles: no, and names the checks that could not run", () => {
    const answer = offlineAnswer(full, "privacy")
    expect(answer.reply.startsWith("No: it is not safe to share. This check fails: exact copies (6.7 % of output rows (20) copy a training row; held-out rows: 0.0 %).")).toBe(true)
    expect(answer.reply).toContain("3 checks could not run, so nothing vouches for the data there: identifier disclosure (the generator has no column roles")
    expect(reassures(answer.reply)).toBe(false)
    expect(answer.cited).toEqual(expect.arrayContaining(["privacy.safe_to_share", "privacy.failing_checks", "privacy.checks_not_run", "privacy.check.identifier_disclosure.finding"]))
  })

  it("is it safe to share, with a failing disclosure: no, naming the column, and no reassurance anywhere", () => {
    const facts = evaluationFacts({ kind: "full", results: evaluations.disclosing, generator: { type: "dp-ctgan", differentiallyPrivate: true, targetEpsilon: 1 } })
    for (const questionClass of ["privacy", "summary", "overall_quality", "improve", "weakest_columns", "ml_utility"] as const) {
      const reply = offlineAnswer(facts, questionClass).reply
      // The summary offers "Is it safe to share?" as a question to ask; no answer states it.
      expect(reply.replaceAll("Is it safe to share?", "")).not.toMatch(/(?<!not )safe to share/)
      expect(reply).not.toMatch(promises)
      expect(reassures(reply)).toBe(false)
    }
    const answer = offlineAnswer(facts, "privacy").reply
    expect(answer).toContain("No: it is not safe to share. This check fails: identifier disclosure (city (keep): 100.0 % of 189 output values are real (189)).")
    expect(answer).toContain("trained with differential privacy at ε = 1")
    expect(offlineAnswer(facts, "summary").reply).toContain("By its privacy checks it is not safe to share (failing: identifier disclosure).")
  })

  it("is it safe to share, when every check passes: yes by the checks, naming them, with the caveat", () => {
    const facts = evaluationFacts({ kind: "full", results: evaluations.safe, generator: { type: "ctgan", differentiallyPrivate: false, targetEpsilon: null } })
    const answer = offlineAnswer(facts, "privacy")
    expect(answer.reply.startsWith(
      "By the privacy checks it is safe to share: quasi-identifier disclosure, attribute inference, membership inference, exact copies passed, and identifier disclosure had nothing to measure."
    )).toBe(true)
    expect(answer.reply).toContain("cannot prove that the data is anonymous")
    expect(answer.reply).toContain("Even so, consider who receives the data")
    expect(answer.cited).toContain("privacy.safe_to_share")
  })

  it("is it safe to share, on results stored before the checks: cannot be said", () => {
    const older = full.filter(({ name }) => !/^privacy\.(safe_to_share|failing_checks|checks_not_run|check\.|disclosure\.|rare_disclosure\.|attribute_inference\.)/.test(name))
    const answer = offlineAnswer(older, "privacy").reply
    expect(answer).toContain("whether the data is safe to share cannot be said from them")
    expect(reassures(answer)).toBe(false)
  })

  it("is it safe to share, for a quick evaluation: says privacy was not measured", () => {
    const answer = offlineAnswer(quick, "privacy")
    expect(answer.reply).toContain("measures no privacy risk")
    expect(answer.reply).toContain("Run a full evaluation")
    expect(answer.reply).not.toMatch(promises)
  })

  it("what to change next: lists the recommendations in order and the weakest column", () => {
    const answer = offlineAnswer(full, "improve")
    const first = full.find((fact) => fact.name === "recommendation.1")!.value as string
    expect(answer.reply).toContain(`(1) ${first}`)
    expect(answer.reply).toContain("(2) ")
    expect(answer.cited).toEqual(expect.arrayContaining(["recommendation.1", "recommendation.2", "weakest_column.1"]))
  })

  it("overall quality: cites the overall score and level, column shapes and validity", () => {
    const answer = offlineAnswer(full, "overall_quality")
    const level = full.find((fact) => fact.name === "quality_level")!.value
    expect(answer.reply).toContain(`The overall quality score is ${two(value(full, "overall_score"))} (${level})`)
    expect(answer.reply).toContain(`column shapes score (${two(value(full, "column_shapes_score"))}`)
    expect(answer.reply).toContain(`Data validity is ${two(value(full, "data_validity_score"))}`)
    expect(answer.cited).toEqual(expect.arrayContaining(["overall_score", "quality_level", "column_shapes_score", "data_validity_score"]))
  })

  it("ML utility: TSTR against TRTR and the utility ratio per algorithm", () => {
    const answer = offlineAnswer(full, "ml_utility")
    const target = full.find((fact) => fact.name === "ml_utility.target")!.value
    expect(answer.reply).toContain(`Models predicting ${target}`)
    for (const algorithm of ["random_forest", "xgboost"]) {
      expect(answer.reply).toContain(
        `${algorithm} reaches f1 ${two(value(full, `ml_utility.${algorithm}.tstr`))} trained on synthetic data vs ${two(value(full, `ml_utility.${algorithm}.trtr`))} trained on real data (utility ratio ${two(value(full, `ml_utility.${algorithm}.ratio`))})`
      )
    }
    expect(offlineAnswer(quick, "ml_utility").reply).toContain("ML utility was not measured")
  })

  it("ML utility skipped: gives the reason", () => {
    const skipped: EvaluationForChat = { kind: "full", results: { ...evaluations.full, mlUtility: { skipped: "no column can be a target" } } }
    expect(offlineAnswer(evaluationFacts(skipped), "ml_utility").reply).toBe("The ML utility part did not run: no column can be a target.")
  })

  it("anything else: a summary with questions it can answer", () => {
    const answer = offlineAnswer(full, "summary")
    expect(answer.reply).toContain(`The overall quality score is ${two(value(full, "overall_score"))}`)
    expect(answer.reply).toContain("Is it safe to share?")
    expect(answer.cited).toEqual(expect.arrayContaining(["overall_score", "weakest_column.1", "privacy.score"]))
  })

  it("cites only facts that exist, in the facts' order", () => {
    for (const questionClass of ["weakest_columns", "privacy", "improve", "overall_quality", "ml_utility", "summary"] as const) {
      const cited = offlineAnswer(full, questionClass).cited
      const order = cited.map((name) => full.findIndex((fact) => fact.name === name))
      expect(order.every((index) => index >= 0)).toBe(true)
      expect(order).toEqual([...order].sort((a, b) => a - b))
    }
  })
})
