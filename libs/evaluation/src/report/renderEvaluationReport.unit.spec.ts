import type { SynthTable } from "@synth/synth"
import { beforeAll, describe, expect, it } from "vitest"
import { type EvaluationResults, evaluationRun } from "../evaluationRun.ts"
import { loadTable } from "../statistical/testing/fixtures.ts"
import { renderEvaluationReport } from "./renderEvaluationReport.ts"

const hostile = "<script>alert(1)</script>"

/** The fixture with `city` renamed to markup: column names are user data. */
const withHostileColumn = (table: SynthTable): SynthTable => ({
  ...table,
  columns: table.columns.map((column) => (column.name === "city" ? { ...column, name: hostile } : column))
})

const header = { evaluationId: "ev-1", generatorId: "gen-1", generatorType: "gaussian_copula", createdAt: "2026-01-01T00:00:00.000Z" }

describe("renderEvaluationReport", () => {
  let results: EvaluationResults
  let html: string

  beforeAll(async () => {
    const [training, synthetic, holdout] = await Promise.all(
      ["privacy_training.csv", "privacy_synthetic.csv", "privacy_holdout.csv"].map(async (name) => withHostileColumn(await loadTable(name)))
    )
    results = evaluationRun(training!, synthetic!, holdout!, {
      sampleSize: 1000,
      seed: 3,
      mlUtility: { algorithms: ["random_forest", "xgboost"], test_size: 0.25, cross_validation_folds: 3, random_state: 5 }
    })
    html = renderEvaluationReport({ ...header, results })
  }, 120_000)

  it("is one HTML document with every section", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true)
    for (const id of ["summary", "recommendations", "distributions", "correlations", "quality", "diagnostic", "utility", "privacy"]) {
      expect(html).toContain(`id="${id}"`)
    }
    expect(html.match(/<svg class="chart"/g)?.length).toBe(results.distributions.length)
    expect(html.match(/<svg class="heatmap"/g)?.length).toBe(3)
    expect(html).toContain("Membership inference AUC")
    expect(html).toContain("random_forest")
  })

  it("escapes user data: a column named as a script is text, and the page has no script at all", () => {
    expect(html).not.toContain(hostile)
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/\son[a-z]+=/i)
  })

  it("loads nothing from elsewhere", () => {
    expect(html).not.toMatch(/\s(?:src|href|xlink:href|action)\s*=\s*["']?\s*(?:https?:)?\/\//i)
    expect(html).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\//i)
    expect(html).not.toMatch(/@import|<link|<img|<iframe|<object|<embed/i)
    expect(html).toContain(`content="default-src 'none'`)
  })

  it("is the same page for the same input", () => {
    expect(renderEvaluationReport({ ...header, results })).toBe(html)
  })

  it("says why ML utility was skipped, and leaves its section out when it was not asked for", () => {
    const skipped = renderEvaluationReport({ ...header, results: { ...results, mlUtility: { skipped: "no <usable> target" } } })
    expect(skipped).toContain("Skipped: no &lt;usable&gt; target")
    expect(renderEvaluationReport({ ...header, results: { ...results, mlUtility: null } })).not.toContain(`id="utility"`)
  })

  it("says so instead of drawing correlations with fewer than two numeric columns", () => {
    const page = renderEvaluationReport({ ...header, results: { ...results, correlations: { columns: ["a"], real: [[1]], synthetic: [[1]] } } })
    expect(page).toContain("Fewer than two numeric columns")
    expect(page).not.toContain(`class="heatmap"`)
  })
})
