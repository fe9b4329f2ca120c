import type { SynthTable } from "@synth/synth"
import { beforeAll, describe, expect, it } from "vitest"
import { expectClose, loadTable, readFixture } from "../statistical/testing/fixtures.ts"
import { closestRecords } from "./closestRecords.ts"
import { dcrBaselineProtection } from "./dcrBaselineProtection.ts"
import { dcrOverfittingProtection } from "./dcrOverfittingProtection.ts"
import { membershipInference } from "./membershipInference.ts"
import { nearestNeighbourRatio } from "./nearestNeighbourRatio.ts"
import { newRowSynthesis } from "./newRowSynthesis.ts"
import { distanceTables } from "./distanceTables.ts"

interface Ratio {
  readonly ratios: ReadonlyArray<number>
  readonly median: number
  readonly mean: number
  readonly share_below_half: number
}
interface RowMatches {
  readonly score: number
  readonly new_rows: number
  readonly matched_rows: number
}
interface Reference {
  readonly training: {
    readonly dcr_synthetic_to_training: ReadonlyArray<number>
    readonly dcr_random_to_training: ReadonlyArray<number>
    readonly dcr_synthetic_to_holdout: ReadonlyArray<number>
    readonly dcr_training_to_synthetic: ReadonlyArray<number>
    readonly dcr_holdout_to_synthetic: ReadonlyArray<number>
    readonly dcr_baseline_protection: { score: number; median_dcr_synthetic: number; median_dcr_random: number }
    readonly dcr_overfitting_protection: { score: number; closer_to_training: number; closer_to_holdout: number }
    readonly new_row_synthesis: RowMatches
    readonly exact_copies: RowMatches
    readonly nearest_neighbour_ratio: Ratio
    readonly membership_inference_auc: number
  }
  readonly mixed: { readonly dcr_synthetic_to_real: ReadonlyArray<number>; readonly new_row_synthesis: RowMatches; readonly nearest_neighbour_ratio: Ratio }
}
const reference = readFixture<Reference>("privacy.json")

const expectEach = (actual: Float64Array, expected: ReadonlyArray<number>) => {
  expect(actual.length).toBe(expected.length)
  expected.forEach((value, i) => expectClose(actual[i]!, value))
}
const nearest = (rows: SynthTable, to: SynthTable) => closestRecords(distanceTables(rows, to)).nearest
const expectRatio = (actual: ReturnType<typeof nearestNeighbourRatio>, expected: Ratio) => {
  expectEach(actual.ratios, expected.ratios)
  expectClose(actual.median, expected.median)
  expectClose(actual.mean, expected.mean)
  expectClose(actual.shareBelowHalf, expected.share_below_half)
}
const expectMatches = (actual: ReturnType<typeof newRowSynthesis>, expected: RowMatches) => {
  expect({ newRows: actual.newRows, matchedRows: actual.matchedRows }).toEqual({ newRows: expected.new_rows, matchedRows: expected.matched_rows })
  expectClose(actual.score, expected.score)
}

describe("privacy metrics against SDMetrics 0.32 (reference/evaluation_reference.py, privacy.json)", () => {
  let training: SynthTable, holdout: SynthTable, synthetic: SynthTable, random: SynthTable
  const expected = reference.training
  beforeAll(async () => {
    training = await loadTable("privacy_training.csv")
    holdout = await loadTable("privacy_holdout.csv")
    synthetic = await loadTable("privacy_synthetic.csv")
    random = await loadTable("privacy_random.csv")
  })

  it("measures every row's distance to its closest record as SDMetrics' calculate_dcr, whichever table is the reference", () => {
    expectEach(nearest(synthetic, training), expected.dcr_synthetic_to_training)
    expectEach(nearest(random, training), expected.dcr_random_to_training)
    expectEach(nearest(synthetic, holdout), expected.dcr_synthetic_to_holdout)
    expectEach(nearest(training, synthetic), expected.dcr_training_to_synthetic)
    expectEach(nearest(holdout, synthetic), expected.dcr_holdout_to_synthetic)
  })

  it("scores DCRBaselineProtection against SDMetrics' own random rows", () => {
    const result = dcrBaselineProtection(training, synthetic, random)
    expectClose(result.score, expected.dcr_baseline_protection.score)
    expectClose(result.medianDcrSynthetic, expected.dcr_baseline_protection.median_dcr_synthetic)
    expectClose(result.medianDcrRandom, expected.dcr_baseline_protection.median_dcr_random)
  })

  it("scores DCROverfittingProtection with the holdout", () => {
    const result = dcrOverfittingProtection(training, synthetic, holdout)
    expectClose(result.score, expected.dcr_overfitting_protection.score)
    expectClose(result.closerToTraining, expected.dcr_overfitting_protection.closer_to_training)
    expectClose(result.closerToHoldout, expected.dcr_overfitting_protection.closer_to_holdout)
  })

  it("counts near copies (NewRowSynthesis, tolerance 0.01) and exact copies (tolerance 0)", () => {
    expectMatches(newRowSynthesis(training, synthetic), expected.new_row_synthesis)
    expectMatches(newRowSynthesis(training, synthetic, 0), expected.exact_copies)
    // The synthetic table holds 20 exact and 20 near copies (income × 1.004) of training rows.
    expect(expected.exact_copies.matched_rows).toBeGreaterThanOrEqual(20)
    expect(expected.new_row_synthesis.matched_rows).toBeGreaterThanOrEqual(40)
  })

  it("computes the nearest-neighbour distance ratio of every synthetic row", () => {
    expectRatio(nearestNeighbourRatio(training, synthetic), expected.nearest_neighbour_ratio)
  })

  it("computes the membership-inference AUC as roc_auc_score of −DCR to the synthetic rows", () => {
    const result = membershipInference(training, holdout, synthetic)
    expectClose(result.auc, expected.membership_inference_auc)
    expect({ members: result.members, nonMembers: result.nonMembers }).toEqual({ members: 400, nonMembers: 200 })
  })

  it("handles dates, datetimes, booleans and missing values on the mixed tables", async () => {
    const [real, mixedSynthetic] = await Promise.all(["mixed_real.csv", "mixed_synthetic.csv"].map(loadTable))
    expectEach(nearest(mixedSynthetic!, real!), reference.mixed.dcr_synthetic_to_real)
    expectMatches(newRowSynthesis(real!, mixedSynthetic!), reference.mixed.new_row_synthesis)
    expectRatio(nearestNeighbourRatio(real!, mixedSynthetic!), reference.mixed.nearest_neighbour_ratio)
  })
})
