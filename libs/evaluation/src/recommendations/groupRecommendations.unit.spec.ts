import type { QualityReport } from "@synth/synth"
import { describe, expect, it } from "vitest"
import type { AttributeInference } from "../privacy/attributeInference.ts"
import type { PrivacyReport } from "../privacy/privacyReport.ts"
import { shareVerdict } from "../privacy/shareVerdict.ts"
import type { CategoricalColumnStatistics, ContinuousColumnStatistics } from "../statistical/columnStatistics.ts"
import { evaluationSummary } from "./evaluationSummary.ts"
import { groupRecommendations, groupSentence } from "./groupRecommendations.ts"
import { privacyRecommendations } from "./privacyRecommendations.ts"
import type { StoredRecommendation } from "./Recommendation.ts"

const continuous = (column: string, ksComplement: number): ContinuousColumnStatistics => ({
  column, kind: "continuous", type: "float", ksStatistic: 1 - ksComplement, ksPValue: 0, ksMethod: "asymp", ksComplement,
  wassersteinDistance: 0.3, normalisedWasserstein: 0.062, realMin: 0, realMax: 10, realMissingShare: 0, syntheticMissingShare: 0
})
const categorical = (column: string, tvComplement: number, realMissingShare = 0): CategoricalColumnStatistics => ({
  column, kind: "categorical", type: "string", chiSquareStatistic: 0.2, chiSquarePValue: 0.9, tvComplement, tvDistance: 1 - tvComplement,
  categoriesNotSynthesised: [], categoriesNotInReal: [], largestFrequencyGap: { category: "Ideal", real: 0.4, synthetic: 0.25 },
  realMissingShare, syntheticMissingShare: 0
})
const quality = (details: QualityReport["properties"]["column_pair_trends"]["details"] = []): QualityReport => ({
  score: 0.6,
  properties: { column_shapes: { score: 0.6, details: [] }, column_pair_trends: { score: 0.6, details } }
})
const pair = (column_1: string, column_2: string, score: number) => ({
  column_1, column_2, metric: "CorrelationSimilarity" as const, score, real_correlation: 0.9, synthetic_correlation: 0.1,
  real_association: null, meets_threshold: true
})

/** c01 … c31: names no other name contains, so counting a name counts the column. */
const names = Array.from({ length: 31 }, (_, index) => `c${String(index + 1).padStart(2, "0")}`)
const occurrences = (text: string, name: string) => text.split(new RegExp(`\\b${name}\\b`)).length - 1

describe("groupRecommendations", () => {
  it("turns the same finding on 31 columns into one recommendation naming each column once, with each one's figures", () => {
    // Every third column is far off (high), the rest a little (medium): the group is as severe as its worst.
    const columns = names.map((name, index) => continuous(name, index % 3 === 0 ? 0.5 : 0.8))
    const { recommendations } = evaluationSummary({ statistical: { quality: quality(), columns } }, "ctgan")
    expect(recommendations).toHaveLength(31)

    const groups = groupRecommendations(recommendations)
    expect(groups).toHaveLength(1)
    const [group] = groups
    expect(group).toMatchObject({ kind: "column_shape", area: "statistical", severity: "high", title: "Distributions differ" })
    expect([...group!.columns].sort()).toEqual(names)
    for (const name of names) expect(occurrences(group!.message, name), name).toBe(1)
    expect(group!.message).toMatch(/^the synthetic distribution differs from the real one in columns c01, c04, .* and c30 — train for more epochs/)
    expect(group!.message.match(/train for more epochs/g)).toHaveLength(1)
    expect(group!.findings).toHaveLength(31)
    expect(group!.findings.map(({ severity }) => severity)).toEqual([...Array(11).fill("high"), ...Array(20).fill("medium")])
    expect(group!.findings[0]).toEqual({
      severity: "high", columns: ["c01"], detail: "KS complement 0.50, Wasserstein distance 6.2 % of the real range"
    })
  })

  it("merges numeric and categorical shape findings, keeps one group per kind, most severe first", () => {
    const { recommendations } = evaluationSummary({
      statistical: {
        quality: quality([pair("a", "b", 0.5), pair("a", "c", 0.6)]),
        columns: [continuous("a", 0.8), categorical("b", 0.6, 0.2), categorical("c", 0.8, 0.3), continuous("d", 0.95)]
      }
    }, "gaussian_copula")
    const groups = groupRecommendations(recommendations)
    expect(groups.map(({ kind, severity, columns }) => `${severity} ${kind} ${columns.join("+")}`)).toEqual([
      "high column_shape b+a+c",
      "medium missing_share b+c",
      "medium pair_trend a+b+c"
    ])
    expect(groups.reduce((sum, group) => sum + group.findings.length, 0)).toBe(recommendations.length)
    const pairs = groups[2]!
    expect(pairs.message).toMatch(/^the relationships between pairs of columns a, b and c are not kept — a Gaussian copula carries only linear/)
    expect(pairs.findings.map(({ columns, detail }) => [columns.join(" × "), detail])).toEqual([
      ["a × b", "real correlation 0.90 but synthetic 0.10"],
      ["a × c", "real correlation 0.90 but synthetic 0.10"]
    ])
    expect(groupSentence(groups[1]!, "these columns")).toBe(
      "the share of missing values differs between the real and the synthetic data in these columns — check how the generator models missing values."
    )
  })

  it("keeps a finding that is alone in its kind as it was, message and all", () => {
    const { recommendations } = evaluationSummary({ statistical: { quality: quality(), columns: [continuous("a", 0.6)] } })
    const [group] = groupRecommendations(recommendations)
    expect(group).toMatchObject({ kind: "column_shape", columns: ["a"], message: recommendations[0]!.message })
    expect(group!.findings).toEqual([{ severity: "high", columns: ["a"], detail: recommendations[0]!.detail }])
  })

  it("names the attack's known columns once as its context and the guessed ones as its subjects", () => {
    const guessed = (sensitive: string, estimate: number): AttributeInference => {
      const side = { rows: 100, matchedRows: 80, capProtection: 0.4, zeroCapProtection: 0.5, disclosureProtection: 0.6, baselineProtection: 0.5 }
      return { sensitive, keys: ["city", "age"], members: side, nonMembers: side, excess: { estimate, low: estimate - 0.1, high: estimate + 0.1 }, passed: false }
    }
    const parts: Omit<PrivacyReport, "verdict"> = {
      dcrBaselineProtection: { score: 0.9, medianDcrSynthetic: 0.05, medianDcrRandom: 0.055 },
      dcrOverfittingProtection: { score: 1, closerToTraining: 0.5, closerToHoldout: 0.5 },
      newRowSynthesis: { score: 1, newRows: 1000, matchedRows: 0 },
      matchTolerance: 0.01,
      exactCopies: { share: 0, rows: 0, holdoutShare: 0, passed: true },
      nearestNeighbourRatio: { median: 0.7, mean: 0.65, shareBelowHalf: 0.2 },
      membershipInference: { auc: 0.8, interval: { low: 0.75, high: 0.85, standardError: 0.02, method: "DeLong" }, passed: false, members: 1000, nonMembers: 500 },
      disclosure: [],
      attributeInference: [guessed("diagnosis", 0.3), guessed("smoker", 0.25)],
      rareThreshold: 5,
      score: 0.5,
      level: "Fair",
      rows: { training: 1000, synthetic: 1000, holdout: 500 }
    }
    const report = { ...parts, verdict: shareVerdict({ ...parts }) }
    const groups = groupRecommendations(privacyRecommendations(report))
    expect(groups.map(({ kind }) => kind)).toEqual(["attribute_inference", "membership_inference"])
    const [attack] = groups
    expect(attack!.columns).toEqual(["city", "age", "diagnosis", "smoker"])
    expect(attack!.findings.map(({ columns }) => columns)).toEqual([["diagnosis"], ["smoker"]])
    expect(attack!.message).toMatch(
      /^knowing city and age, an attacker guesses columns diagnosis and smoker of the training rows better than of rows the generator never saw — fake or drop quasi-identifiers/
    )
    for (const name of attack!.columns) expect(occurrences(attack!.message, name), name).toBe(1)
  })

  it("never merges what fires once per table, nor recommendations stored before kinds existed", () => {
    const stored: ReadonlyArray<StoredRecommendation> = [
      { area: "statistical", severity: "medium", columns: ["a"], message: "column a: older wording one." },
      { area: "statistical", severity: "high", columns: ["b"], message: "column b: older wording two." },
      { area: "privacy", severity: "medium", columns: [], message: "rows nearly copy real rows." }
    ]
    const groups = groupRecommendations(stored)
    expect(groups.map(({ kind, severity, title, message }) => [kind, severity, title, message])).toEqual([
      [null, "high", "Statistical", "column b: older wording two."],
      [null, "medium", "Statistical", "column a: older wording one."],
      [null, "medium", "Privacy", "rows nearly copy real rows."]
    ])
    expect(groupSentence(groups[0]!)).toBeNull()
  })
})
