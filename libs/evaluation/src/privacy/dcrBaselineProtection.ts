import type { SynthTable } from "@synth/synth"
import { closestRecords } from "./closestRecords.ts"
import { median } from "./median.ts"
import { distanceTables } from "./distanceTables.ts"

export interface DcrBaselineProtection {
  /** min(median DCR of the synthetic rows / median DCR of the random rows, 1); null when the random median is 0. */
  readonly score: number | null
  readonly medianDcrSynthetic: number
  readonly medianDcrRandom: number
}

/**
 * SDMetrics' DCRBaselineProtection: how far the synthetic rows lie from the real ones (the median of each synthetic
 * row's distance to its closest real row), relative to rows drawn at random over the real columns' ranges (the
 * `baseline`, see randomBaseline). 1: no closer than chance. Distances are SDMetrics' (see closestRecords), with
 * the real table's ranges.
 */
export const dcrBaselineProtection = (real: SynthTable, synthetic: SynthTable, baseline: SynthTable): DcrBaselineProtection =>
  dcrBaselineFromDistances(closestRecords(distanceTables(synthetic, real)).nearest, closestRecords(distanceTables(baseline, real)).nearest)

/** dcrBaselineProtection from each synthetic and each random row's distance to its closest real row. */
export const dcrBaselineFromDistances = (syntheticDcr: Float64Array, randomDcr: Float64Array): DcrBaselineProtection => {
  const medianDcrSynthetic = median(syntheticDcr)
  const medianDcrRandom = median(randomDcr)
  return {
    score: medianDcrRandom === 0 || Number.isNaN(medianDcrRandom) ? null : Math.min(medianDcrSynthetic / medianDcrRandom, 1),
    medianDcrSynthetic,
    medianDcrRandom
  }
}
