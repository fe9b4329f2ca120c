import type { SynthTable } from "@synth/synth"
import { beforeAll, describe, expect, it } from "vitest"
import { holdoutRows } from "@synth/protect"
import { type EvaluationResults, evaluationRun } from "../evaluationRun.ts"
import { customerColumns, customerTable, people, realCustomers } from "../privacy/testing/customers.ts"
import { loadTable } from "../statistical/testing/fixtures.ts"
import { statisticalRecommendations } from "../recommendations/statisticalRecommendations.ts"
import type { ContinuousColumnStatistics } from "../statistical/columnStatistics.ts"
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

  it("shows before it tells: charts, correlations, privacy and utility, then the recommendations, then the details", () => {
    const order = ["summary", "distributions", "correlations", "privacy", "utility", "recommendations", "quality", "diagnostic"]
    const positions = order.map((id) => html.indexOf(`id="${id}"`))
    expect(positions.every((position) => position >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(html.indexOf(`<svg class="chart"`)).toBeLessThan(html.indexOf(`id="recommendations"`))
    expect(html.indexOf(`<svg class="heatmap"`)).toBeLessThan(html.indexOf(`id="recommendations"`))
    // The header still gives the verdict before any chart.
    expect(html.indexOf("Safe to share")).toBeLessThan(html.indexOf(`id="distributions"`))
  })

  it("lists one recommendation per kind of finding: the same finding on 31 columns is one entry naming each once", () => {
    const names = Array.from({ length: 31 }, (_, index) => `col${String(index + 1).padStart(2, "0")}`)
    const columns = names.map((column): ContinuousColumnStatistics => ({
      column, kind: "continuous", type: "float", ksStatistic: 0.4, ksPValue: 0, ksMethod: "asymp", ksComplement: 0.6,
      wassersteinDistance: 1, normalisedWasserstein: 0.2, realMin: 0, realMax: 5, realMissingShare: 0, syntheticMissingShare: 0
    }))
    const repeated = statisticalRecommendations(columns, results.statistical.quality, "ctgan")
    expect(repeated).toHaveLength(31)
    const page = renderEvaluationReport({ ...header, results: { ...results, summary: { ...results.summary, recommendations: repeated } } })
    const section = page.slice(page.indexOf(`<section id="recommendations">`), page.indexOf(`<section id="quality">`))
    expect(section.match(/<li class="high" data-kind="column_shape">/g)).toHaveLength(1)
    expect(section.match(/class="finding-columns"/g)).toHaveLength(31)
    for (const name of names) expect(section.split(new RegExp(`\\b${name}\\b`)).length - 1, name).toBe(1)
    expect(section.match(/train for more epochs/g)).toHaveLength(1)
    expect(section).toContain("The synthetic distribution differs from the real one in these columns — train for more epochs")
    expect(section).toContain("31 findings in 1 recommendation")
  })

  it("shows recommendations stored before kinds existed one by one, as they were worded", () => {
    const stored = [
      { area: "statistical" as const, severity: "medium" as const, columns: ["a"], message: "column a: <older> wording." },
      { area: "statistical" as const, severity: "medium" as const, columns: ["b"], message: "column b: older wording." }
    ]
    const page = renderEvaluationReport({
      ...header,
      results: { ...results, summary: { ...results.summary, recommendations: stored as unknown as typeof results.summary.recommendations } }
    })
    expect(page).toContain("<p>Column a: &lt;older&gt; wording.</p>")
    expect(page).toContain("<p>Column b: older wording.</p>")
    expect(page).not.toContain("data-kind=")
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

  it("says the output is not safe to share when the privacy checks could not run (no column roles)", () => {
    const privacy = html.slice(html.indexOf(`<section id="privacy">`))
    expect(privacy).toContain("Not safe to share.")
    expect(privacy).toContain("Could not run: Identifier disclosure, Quasi-identifier disclosure, Attribute inference (CAP).")
    expect(privacy).not.toContain("Safe to share by these checks")
    expect(privacy).toMatch(/95 % interval \d\.\d{3} to \d\.\d{3} \(DeLong\)/)
  })

  it("says so instead of drawing correlations with fewer than two numeric columns", () => {
    const page = renderEvaluationReport({ ...header, results: { ...results, correlations: { columns: ["a"], real: [[1]], synthetic: [[1]] } } })
    expect(page).toContain("Fewer than two numeric columns")
    expect(page).not.toContain(`class="heatmap"`)
  })
})

describe("renderEvaluationReport's privacy section on a generator's output with column roles", () => {
  const real = customerTable(realCustomers())
  const heldOutRows = holdoutRows(real.rowCount, { share: 0.1, maxRows: 10_000 }, 7)
  const render = (synthetic: SynthTable, columns: typeof customerColumns) =>
    renderEvaluationReport({
      ...header,
      results: evaluationRun(real, synthetic, null, { sampleSize: 10_000, seed: 1, mlUtility: null, generatorPrivacy: { columns, rareThreshold: 5, heldOutRows } })
    })
  const privacyOf = (page: string) => page.slice(page.indexOf(`<section id="privacy">`))

  it("calls a protected output safe to share, with every check passed and each personal column measured", () => {
    const page = render(customerTable(people(2000, 99, 100_000), ["name"]), customerColumns.map((column) => column.name === "name" ? { ...column, handling: "drop" as const } : column))
    const privacy = privacyOf(page)
    expect(privacy).toContain("Safe to share by these checks.")
    expect(privacy.match(/class="badge check-failed"/g)).toBeNull()
    expect(privacy).toContain("<td>name</td><td>direct identifier</td><td>drop</td><td>not in the output</td>")
    expect(privacy).toContain("<td>email</td><td>direct identifier</td><td>fake</td><td>2000</td><td>0.0 % (0)</td>")
    expect(page).toContain("<dt>Not scored</dt><dd>name (dropped), email (faked), ssn (faked)</dd>")
  })

  it("never says safe while a check fails: copied e-mails fail identifier disclosure, named in the banner", () => {
    const members = realCustomers().filter((_, index) => !heldOutRows.includes(index))
    const copied = customerTable(people(2000, 99, 100_000).map((person, index) => ({ ...person, email: members[index % members.length]!.email })), ["name"])
    const columns = customerColumns.map((column) =>
      column.name === "name" ? { ...column, handling: "drop" as const } : column.name === "email" ? { ...column, handling: "keep" as const } : column
    )
    const page = render(copied, columns)
    const privacy = privacyOf(page)
    expect(privacy).toContain("Not safe to share.")
    expect(privacy).toContain("Failed: Identifier disclosure")
    expect(privacy).not.toMatch(/Safe to share by/)
    expect(privacy).toContain("<td>email</td><td>direct identifier</td><td>keep</td><td>2000</td><td>100.0 % (2000)</td>")
    expect(page).toMatch(/<div class="stat-value">No<\/div><div class="stat-caption">Safe to share<\/div>/)
  })
})
