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
