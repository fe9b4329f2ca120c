import { beforeAll, describe, expect, it } from "@effect/vitest"
import { evaluationFacts, withoutDataValues } from "./evaluationFacts.ts"
import { fixtureEvaluations, type FixtureEvaluations, fixtureRows } from "./testing/evaluationFixtures.ts"

let evaluations: FixtureEvaluations
beforeAll(async () => {
  evaluations = await fixtureEvaluations()
})

const names = (facts: ReturnType<typeof evaluationFacts>) => facts.map(({ name }) => name)
const rounded = (value: number) => Math.round(value * 1000) / 1000

describe("evaluationFacts of a full run", () => {
  it("lists quality, the three weakest columns, validity, ML utility, privacy, the generator and recommendations in order", () => {
    const facts = evaluationFacts({
      kind: "full",
      results: evaluations.full,
      generator: { type: "dp-ctgan", differentiallyPrivate: true, targetEpsilon: 3 }
    })
    const listed = names(facts)
    expect(listed.slice(0, 2)).toEqual(["overall_score", "quality_level"])
    expect(listed.filter((name) => name.startsWith("weakest_column."))).toEqual(["weakest_column.1", "weakest_column.2", "weakest_column.3"])
    for (const name of ["data_validity_score", "ml_utility.target", "ml_utility.random_forest.ratio", "ml_utility.xgboost.tstr", "privacy.score", "privacy.level", "privacy.dcr_baseline_protection", "privacy.exact_copy_share", "privacy.exact_copy_rows", "privacy.nndr_median", "privacy.mia_auc", "generator.differentially_private", "generator.target_epsilon", "recommendation.1"]) {
      expect(listed).toContain(name)
    }
    expect(listed.indexOf("privacy.score")).toBeGreaterThan(listed.indexOf("ml_utility.target"))
    expect(listed.indexOf("recommendation.1")).toBeGreaterThan(listed.indexOf("generator.type"))
    expect(listed.at(-1)).toMatch(/^recommendation\./)
  })

  it("takes the figures from the results, rounded to three decimals", () => {
    const results = evaluations.full
    const facts = new Map(evaluationFacts({ kind: "full", results }).map((fact) => [fact.name, fact]))
    expect(facts.get("overall_score")?.value).toBe(rounded(results.summary.overallScore!))
    expect(facts.get("privacy.mia_auc")?.value).toBe(rounded(results.privacy.membershipInference!.auc))
    expect(facts.get("privacy.exact_copy_rows")?.value).toBe(results.privacy.exactCopies.rows)
    const { matchedRows, newRows } = results.privacy.newRowSynthesis
    expect(facts.get("privacy.near_copy_share")?.value).toBe(rounded((matchedRows - results.privacy.exactCopies.rows) / (matchedRows + newRows)))
    expect(facts.get("privacy.dcr_baseline_protection")?.value).toBe(rounded(results.privacy.dcrBaselineProtection.score!))
    const weakest = [...results.statistical.quality.properties.column_shapes.details].sort((a, b) => a.score! - b.score!)[0]!
    expect(facts.get("weakest_column.1")).toMatchObject({ value: rounded(weakest.score!), metric: weakest.metric, columns: [weakest.column] })
    expect(facts.has("generator.type")).toBe(false)
  })

  it("is stable: equal results give equal facts", () => {
    expect(evaluationFacts({ kind: "full", results: evaluations.full })).toEqual(evaluationFacts({ kind: "full", results: evaluations.full }))
  })

  it("holds no row and no value of the data", () => {
    const text = JSON.stringify(evaluationFacts({ kind: "full", results: evaluations.full }))
    for (const row of fixtureRows("privacy_training.csv")) expect(text).not.toContain(row)
    // City names are the fixture's categories; real ranges are its values.
    for (const city of ["Rotterdam", "Utrecht", "Amsterdam"]) expect(text).not.toContain(city)
    expect(text).not.toMatch(/real range \[/)
  })
})

describe("evaluationFacts of the privacy checks", () => {
  const byName = (results: FixtureEvaluations["full"]) => new Map(evaluationFacts({ kind: "full", results }).map((fact) => [fact.name, fact]))

  it("gives the verdict, each check's result and finding, the failing checks and the AUC's interval", () => {
    const facts = byName(evaluations.disclosing)
    expect(facts.get("privacy.safe_to_share")?.value).toBe(false)
    expect(facts.get("privacy.failing_checks")?.value).toBe("identifier disclosure")
    expect(facts.has("privacy.checks_not_run")).toBe(false)
    expect(facts.get("privacy.check.identifier_disclosure")).toMatchObject({ value: "failed", columns: ["city"] })
    expect(facts.get("privacy.check.identifier_disclosure.finding")?.value).toBe("city (keep): 100.0 % of 189 output values are real (189)")
    expect(facts.get("privacy.check.membership_inference")?.value).toBe("passed")
    const interval = evaluations.disclosing.privacy.membershipInference!.interval!
    expect(facts.get("privacy.mia_auc_low")?.value).toBe(rounded(interval.low))
    expect(facts.get("privacy.mia_auc_high")?.value).toBe(rounded(interval.high))
  })

  it("gives each personal column's disclosure, failing ones first, and the CAP attack's excess", () => {
    const disclosing = byName(evaluations.disclosing)
    expect(disclosing.get("privacy.disclosure.1")).toMatchObject({ value: 1, columns: ["city"] })
    expect(disclosing.get("privacy.disclosure.1")!.label).toContain("(fails its check)")
    const safe = byName(evaluations.safe)
    expect(safe.get("privacy.safe_to_share")?.value).toBe(true)
    expect(safe.get("privacy.rare_disclosure.1")).toMatchObject({ value: 0, columns: ["city"] })
    const attack = evaluations.safe.privacy.attributeInference![0]!
    expect(safe.get("privacy.attribute_inference.1")).toMatchObject({ value: rounded(attack.excess!.estimate), metric: "CategoricalCAP", columns: ["city", "member"] })
  })

  it("lists the checks that could not run, and has no verdict for results stored before the checks existed", () => {
    expect(byName(evaluations.full).get("privacy.checks_not_run")?.value).toBe("identifier disclosure, quasi-identifier disclosure, attribute inference")
    const { verdict: _verdict, disclosure: _disclosure, attributeInference: _inference, ...older } = evaluations.full.privacy
    const facts = byName({ ...evaluations.full, privacy: older as FixtureEvaluations["full"]["privacy"] })
    expect([...facts.keys()].filter((name) => /safe_to_share|check\.|disclosure\./.test(name))).toEqual([])
    expect(facts.has("privacy.mia_auc")).toBe(true)
  })
})

describe("evaluationFacts of a quick evaluation", () => {
  it("has the quality, columns, validity and recommendations but no privacy or ML utility", () => {
    const listed = names(evaluationFacts({ kind: "quick", results: evaluations.quick }))
    expect(listed).toContain("overall_score")
    expect(listed).toContain("weakest_column.1")
    expect(listed).toContain("recommendation.1")
    expect(listed.some((name) => name.startsWith("privacy.") || name.startsWith("ml_utility."))).toBe(false)
  })
})

describe("withoutDataValues", () => {
  it("drops real ranges and quoted categories, keeps figures, columns and the action", () => {
    expect(withoutDataValues('column income: 1.4 % of synthetic values (4) lie outside the real range [12000, 150000] — clamp them.'))
      .toBe("column income: 1.4 % of synthetic values (4) lie outside the real range — clamp them.")
    expect(withoutDataValues('column city: real categories "Delft", "Leiden" never appear — group rare categories.'))
      .toBe('column city: real categories "…", "…" never appear — group rare categories.')
  })
})
