import { makeRandom, type SynthTable } from "@synth/synth"
import { qualityLevel, type QualityLevel } from "@synth/stats"
import { closestRecordDistances } from "./closestRecords.ts"
import { type DcrBaselineProtection, dcrBaselineFromDistances } from "./dcrBaselineProtection.ts"
import { type DcrOverfittingProtection, dcrOverfittingFromDistances } from "./dcrOverfittingProtection.ts"
import { type MembershipInference, membershipInferenceFromDistances } from "./membershipInference.ts"
import { nearestNeighbourRatioFrom } from "./nearestNeighbourRatio.ts"
import { type NewRowSynthesis, newRowSynthesis } from "./newRowSynthesis.ts"
import { randomBaseline } from "./randomBaseline.ts"
import { sampleRows } from "./sampleRows.ts"

export interface PrivacyOptions {
  /** Seeds the row samples and the random baseline (default 0). */
  readonly seed?: number
  /** Rows sampled from each table before the quadratic distance metrics (default 10,000). */
  readonly maxRows?: number
  /** NewRowSynthesis' numerical_match_tolerance (default 0.01, SDMetrics'). */
  readonly matchTolerance?: number
}

export interface PrivacyReport {
  readonly dcrBaselineProtection: DcrBaselineProtection
  /** Null without a holdout. */
  readonly dcrOverfittingProtection: DcrOverfittingProtection | null
  /** Near copies: every number within the match tolerance, every category equal. */
  readonly newRowSynthesis: NewRowSynthesis
  /** The match tolerance newRowSynthesis used (relative to the synthetic value). */
  readonly matchTolerance: number
  /** Exact copies of real rows (tolerance 0): the share of synthetic rows identical to some real row. */
  readonly exactCopies: { readonly share: number; readonly rows: number }
  readonly nearestNeighbourRatio: { readonly median: number; readonly mean: number; readonly shareBelowHalf: number }
  /** Null without a holdout. */
  readonly membershipInference: MembershipInference | null
  /**
   * Mean of the protection scores that could be computed, each 0 … 1 with 1 best: DCR baseline protection, DCR
   * overfitting protection, new-row synthesis, and the attack's protection min(1, 2·(1 − AUC)).
   */
  readonly score: number | null
  readonly level: QualityLevel | null
  /** Rows each table was sampled down to. */
  readonly rows: { readonly training: number; readonly synthetic: number; readonly holdout: number | null }
}

/** The attack's AUC as a protection score: 1 up to a coin toss (0.5), 0 for a perfect attack. */
export const attackProtection = (auc: number): number => Math.max(0, Math.min(1, 2 * (1 - auc)))

/**
 * The privacy part of an evaluation run: the training rows the generator saw, its synthetic rows and, when there is
 * one, a holdout of real rows it did not see. Deterministic for a given seed.
 */
export const privacyReport = (training: SynthTable, synthetic: SynthTable, holdout: SynthTable | null, options: PrivacyOptions = {}): PrivacyReport => {
  const random = makeRandom(options.seed ?? 0)
  const maxRows = options.maxRows ?? 10_000
  const trainingSample = sampleRows(training, maxRows, random.fork())
  const syntheticSample = sampleRows(synthetic, maxRows, random.fork())
  const holdoutSample = holdout === null ? null : sampleRows(holdout, maxRows, random.fork())
  const baseline = randomBaseline(trainingSample, syntheticSample.rowCount, random.fork())

  // Each n × m scan once: the synthetic rows' closest training rows serve three metrics.
  const closest = closestRecordDistances
  const syntheticToTraining = closest(syntheticSample, trainingSample)
  const baselineProtection = dcrBaselineFromDistances(syntheticToTraining.nearest, closest(baseline, trainingSample).nearest)
  const overfitting = holdoutSample === null ? null : dcrOverfittingFromDistances(syntheticToTraining.nearest, closest(syntheticSample, holdoutSample).nearest)
  const matchTolerance = options.matchTolerance ?? 0.01
  const newRows = newRowSynthesis(trainingSample, syntheticSample, matchTolerance)
  const copies = newRowSynthesis(trainingSample, syntheticSample, 0)
  const ratio = nearestNeighbourRatioFrom(syntheticToTraining)
  const attack = holdoutSample === null
    ? null
    : membershipInferenceFromDistances(closest(trainingSample, syntheticSample).nearest, closest(holdoutSample, syntheticSample).nearest)

  const protections = [baselineProtection.score, overfitting?.score ?? null, newRows.score, attack === null ? null : attackProtection(attack.auc)]
    .filter((value): value is number => value !== null && !Number.isNaN(value))
  const score = protections.length === 0 ? null : protections.reduce((sum, value) => sum + value, 0) / protections.length
  return {
    dcrBaselineProtection: baselineProtection,
    dcrOverfittingProtection: overfitting,
    newRowSynthesis: newRows,
    matchTolerance,
    exactCopies: { share: syntheticSample.rowCount === 0 ? 0 : copies.matchedRows / syntheticSample.rowCount, rows: copies.matchedRows },
    nearestNeighbourRatio: { median: ratio.median, mean: ratio.mean, shareBelowHalf: ratio.shareBelowHalf },
    membershipInference: attack,
    score,
    level: score === null ? null : qualityLevel(score),
    rows: { training: trainingSample.rowCount, synthetic: syntheticSample.rowCount, holdout: holdoutSample?.rowCount ?? null }
  }
}
