import type { QualityReport } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { diagnosticReport } from "../diagnostic/diagnosticReport.ts"
import type { MembershipInference } from "../privacy/membershipInference.ts"
import type { PrivacyReport } from "../privacy/privacyReport.ts"
import { shareVerdict } from "../privacy/shareVerdict.ts"
import type { ColumnDisclosure } from "../privacy/valueDisclosure.ts"
import type { CategoricalColumnStatistics, ContinuousColumnStatistics } from "../statistical/columnStatistics.ts"
import { loadTable } from "../statistical/testing/fixtures.ts"
import { diagnosticRecommendations } from "./diagnosticRecommendations.ts"
import { evaluationSummary } from "./evaluationSummary.ts"
import { privacyRecommendations } from "./privacyRecommendations.ts"
import { statisticalRecommendations } from "./statisticalRecommendations.ts"

const carat: ContinuousColumnStatistics = {
  column: "carat", kind: "continuous", type: "float", ksStatistic: 0.29, ksPValue: 0, ksMethod: "asymp", ksComplement: 0.71,
  wassersteinDistance: 0.3, normalisedWasserstein: 0.062, realMin: 0.2, realMax: 5.01, realMissingShare: 0, syntheticMissingShare: 0
}
const cut: CategoricalColumnStatistics = {
  column: "cut", kind: "categorical", type: "string", chiSquareStatistic: 0.2, chiSquarePValue: 0.9, tvComplement: 0.82, tvDistance: 0.18,
  categoriesNotSynthesised: ["Fair"], categoriesNotInReal: [], largestFrequencyGap: { category: "Ideal", real: 0.4, synthetic: 0.25 },
  realMissingShare: 0.1, syntheticMissingShare: 0
}
const quality = (details: QualityReport["properties"]["column_pair_trends"]["details"]): QualityReport => ({
  score: 0.8,
  properties: { column_shapes: { score: 0.8, details: [] }, column_pair_trends: { score: 0.8, details } }
})
const pair = {
  column_1: "carat", column_2: "price", metric: "CorrelationSimilarity" as const, score: 0.6, real_correlation: 0.92,
  synthetic_correlation: 0.12, real_association: null, meets_threshold: true
}

describe("statisticalRecommendations", () => {
  it("names the column, the figure and an action fitted to the generator", () => {
    const [shape] = statisticalRecommendations([carat], quality([]), "gaussian_copula")
    expect(shape).toMatchObject({ area: "statistical", severity: "medium", columns: ["carat"] })
    expect(shape!.message).toMatch(/^column carat: KS complement 0\.71, Wasserstein distance 6\.2 % of the real range — .*try ctgan or tvae/)
    expect(statisticalRecommendations([carat], quality([]), "ctgan")[0]!.message).toContain("train for more epochs")
    expect(statisticalRecommendations([{ ...carat, ksComplement: 0.6 }], quality([]))[0]!.severity).toBe("high")
  })

  it("flags category frequencies, lost categories and a missing share the generator did not keep", () => {
    const messages = statisticalRecommendations([cut], quality([])).map(({ message }) => message)
    expect(messages).toEqual([
      expect.stringMatching(/^column cut: TV complement 0\.82 \(most off: "Ideal" 40\.0 % of real rows vs 25\.0 % of synthetic\)/),
      expect.stringMatching(/^column cut: real categories "Fair" never appear/),
      expect.stringMatching(/^column cut: 10\.0 % missing in the real data but 0\.0 % in the synthetic data/)
    ])
  })

  it("flags a counted pair whose relationship is lost, and ignores pairs the quality score does not count", () => {
    const found = statisticalRecommendations([], quality([pair, { ...pair, column_2: "depth", meets_threshold: false }]))
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ columns: ["carat", "price"], severity: "medium" })
    expect(found[0]!.message).toMatch(/^columns carat and price: real correlation 0\.92 but synthetic 0\.12/)
  })

  it("stays silent on columns that match", () => {
    expect(statisticalRecommendations([{ ...carat, ksComplement: 0.95 }], quality([{ ...pair, score: 0.97 }]))).toEqual([])
  })
})

describe("diagnosticRecommendations", () => {
  it("names out-of-range values with the real range, unknown categories and the structure drift", async () => {
    const report = diagnosticReport(await loadTable("mixed_real.csv"), await loadTable("mixed_broken.csv"))
    const messages = diagnosticRecommendations(report).map(({ message }) => message)
    expect(messages).toContainEqual(expect.stringMatching(/^column amount: 27\.1 % of synthetic values \(\d+\) lie outside the real range \[-?[\d.]+, [\d.]+\] — clamp/))
    expect(messages).toContainEqual(expect.stringMatching(/^column tier: 9\.5 % of synthetic values are not real categories \("platinum"\)/))
    expect(messages).toContainEqual(expect.stringMatching(/^column day: [\d.]+ % of synthetic values \(\d+\) lie outside the real range \[\d{4}-\d\d-\d\d, \d{4}-\d\d-\d\d\]/))
    expect(messages).toContainEqual(expect.stringMatching(/^column moment: .* \[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z, \d{4}-\d\d-\d\dT[\d:.]+Z\]/))
    expect(messages).toContainEqual(
      'table structure: missing "active"; extra "is_active"; "count" is float64 instead of Int64 — generate with the real table\'s schema (column names and types) so the synthetic table can replace it.'
    )
  })
})

/** A privacy report with its verdict drawn from its own parts, as privacyReport draws it. */
const withVerdict = (parts: Omit<PrivacyReport, "verdict">): PrivacyReport => ({
  ...parts,
  verdict: shareVerdict({
    disclosure: parts.disclosure,
    attributeInference: parts.attributeInference,
    membershipInference: parts.membershipInference,
    exactCopies: parts.exactCopies,
    rareThreshold: parts.rareThreshold
  })
})

const attack = (auc: number, high: number): MembershipInference => ({
  auc,
  interval: { low: auc - (high - auc), high, standardError: (high - auc) / 1.96, method: "DeLong" },
  passed: auc <= 0.6 && high <= 0.7,
  members: 1000,
  nonMembers: 500
})

const email: ColumnDisclosure = {
  name: "email", role: "direct_identifier", handling: "keep", piiType: "email_address", rule: "no_real_values", inOutput: true,
  values: 1000, realValues: 1000, realShare: 1, rareValues: 1000, rareShare: 1, chanceRareShare: null, passed: false
}
const city: ColumnDisclosure = {
  name: "city", role: "quasi_identifier", handling: "keep", piiType: null, rule: "no_rare_values", inOutput: true,
  values: 1000, realValues: 990, realShare: 0.99, rareValues: 8, rareShare: 0.008, chanceRareShare: null, passed: false
}
const born: ColumnDisclosure = {
  name: "born", role: "quasi_identifier", handling: "keep", piiType: "date_of_birth", rule: "rare_values_at_chance", inOutput: true,
  values: 1000, realValues: 300, realShare: 0.3, rareValues: 250, rareShare: 0.25, chanceRareShare: 0.02, passed: false
}

describe("privacyRecommendations", () => {
  const report = withVerdict({
    dcrBaselineProtection: { score: 0.4, medianDcrSynthetic: 0.02, medianDcrRandom: 0.05 },
    dcrOverfittingProtection: { score: 0.6, closerToTraining: 0.7, closerToHoldout: 0.3 },
    newRowSynthesis: { score: 0.9, newRows: 900, matchedRows: 100 },
    matchTolerance: 0.01,
    exactCopies: { share: 0.032, rows: 32, holdoutShare: 0, passed: false },
    nearestNeighbourRatio: { median: 0.7, mean: 0.65, shareBelowHalf: 0.2 },
    membershipInference: attack(0.8, 0.85),
    disclosure: [],
    attributeInference: [],
    rareThreshold: 5,
    score: 0.5,
    level: "Fair",
    rows: { training: 1000, synthetic: 1000, holdout: 500 }
  })

  it("quantifies copies, closeness, memorisation and the attack, each with an action", () => {
    const found = privacyRecommendations(report)
    expect(found.map(({ severity, message }) => [severity, message.split(" — ")[0]])).toEqual([
      ["high", "3.2 % of synthetic rows (32) copy a real row exactly"],
      ["medium", "6.8 % of synthetic rows (68) nearly copy a real row (every category equal, every number within 1.0 %)"],
      ["high", "70.0 % of synthetic rows are closer to the training rows than to unseen holdout rows"],
      ["high", "a distance-based membership-inference attack tells training rows from holdout rows with AUC 0.80 (0.5 is chance)"]
    ])
    expect(found.every(({ message }) => message.includes("differential privacy"))).toBe(true)
  })

  it("judges closeness by the random baseline only without a holdout", () => {
    const found = privacyRecommendations({ ...report, dcrOverfittingProtection: null, membershipInference: null })
    expect(found.map(({ message }) => message.split(" — ")[0])).toContain(
      "synthetic rows lie closer to real rows than random rows do (DCR baseline protection 0.40: median distance 0.02 vs 0.05)"
    )
  })

  const { verdict: _verdict, ...parts } = report
  const privateTable = withVerdict({
    ...parts,
    dcrBaselineProtection: { score: 0.9, medianDcrSynthetic: 0.05, medianDcrRandom: 0.055 },
    dcrOverfittingProtection: { score: 1, closerToTraining: 0.5, closerToHoldout: 0.5 },
    newRowSynthesis: { score: 1, newRows: 1000, matchedRows: 0 },
    exactCopies: { share: 0, rows: 0, holdoutShare: 0, passed: true },
    membershipInference: attack(0.51, 0.56)
  })

  it("stays silent on a private table", () => {
    expect(privateTable.verdict.safeToShare).toBe(true)
    expect(privacyRecommendations(privateTable)).toEqual([])
  })

  it("names each disclosing column with the setting that stops it, most severe first", () => {
    const found = privacyRecommendations(withVerdict({ ...privateTable, disclosure: [email, city, born] }))
    expect(found.map(({ severity, columns, message }) => [severity, columns.join(), message.split(" — ")[0]])).toEqual([
      ["high", "email", "column email (direct identifier, handling keep): 100.0 % of output values (1000) are real values of the column"],
      ["high", "city", "column city (quasi-identifier, handling keep): 0.8 % of output values (8) are values fewer than 5 real rows hold, which point to those people"],
      ["high", "born", "column born (quasi-identifier, handling keep): 25.0 % of output values (250) land on values fewer than 5 real rows hold, more often than real rows the generator never saw do (2.0 %)"]
    ])
    expect(found[0]!.message).toContain("columns.email.handling set to fake")
    expect(found[1]!.message).toContain("privacy.rare_category_protection")
  })

  it("says when too few held-out rows leave the attack undecided, and when checks could not run", () => {
    const undecided = privacyRecommendations(withVerdict({ ...privateTable, membershipInference: attack(0.55, 0.75) }))
    expect(undecided.map(({ message }) => message.split(" — ")[0])).toEqual([
      "the membership-inference attack's AUC is 0.55, but with 500 held-out rows its 95 % interval reaches 0.75: too few to show the attack fails"
    ])
    const unknown = privacyRecommendations(withVerdict({ ...privateTable, disclosure: null, attributeInference: null, rareThreshold: null }))
    expect(unknown).toHaveLength(1)
    expect(unknown[0]!.message).toMatch(/^the privacy checks identifier disclosure, quasi-identifier disclosure, attribute inference could not run \(the generator has no column roles/)
  })
})

describe("evaluationSummary", () => {
  it("puts the most severe first and says which checks found nothing", () => {
    // The rules yield cut's (medium, low, medium) before carat's (high) and the pair's (medium).
    const summary = evaluationSummary({ statistical: { quality: quality([pair]), columns: [cut, { ...carat, ksComplement: 0.6 }] } })
    expect(summary.recommendations.map(({ severity, columns }) => `${severity} ${columns.join("+")}`)).toEqual([
      "high carat", "medium cut", "medium cut", "medium carat+price", "low cut"
    ])
    expect(summary).toMatchObject({ overallScore: 0.8, qualityLevel: "Good" })
    const clear = evaluationSummary({ statistical: { quality: quality([]), columns: [] } })
    expect(clear.recommendations.map(({ message }) => message)).toEqual([
      "No issue found by the statistical checks: its quality needs no change. Privacy is not measured here; a full evaluation run checks it."
    ])
  })
})
