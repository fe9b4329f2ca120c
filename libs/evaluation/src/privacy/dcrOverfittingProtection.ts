import type { SynthTable } from "@synth/synth"
import { closestRecords } from "./closestRecords.ts"
import { distanceTables } from "./distanceTables.ts"

export interface DcrOverfittingProtection {
  /** min(2·(1 − closerToTraining), 1): 1 while at most half the synthetic rows are closer to the training rows. */
  readonly score: number
  /** Share of synthetic rows strictly closer to their closest training row than to their closest holdout row. */
  readonly closerToTraining: number
  readonly closerToHoldout: number
}

/**
 * SDMetrics' DCROverfittingProtection: a generator that memorised its training rows puts its synthetic rows closer
 * to them than to real rows it never saw (the holdout). Each distance uses the ranges of the table it is measured
 * to, as SDMetrics does.
 */
export const dcrOverfittingProtection = (training: SynthTable, synthetic: SynthTable, holdout: SynthTable): DcrOverfittingProtection =>
  dcrOverfittingFromDistances(closestRecords(distanceTables(synthetic, training)).nearest, closestRecords(distanceTables(synthetic, holdout)).nearest)

/** dcrOverfittingProtection from each synthetic row's distance to its closest training and closest holdout row. */
export const dcrOverfittingFromDistances = (toTraining: Float64Array, toHoldout: Float64Array): DcrOverfittingProtection => {
  let closer = 0
  for (let i = 0; i < toTraining.length; i++) if (toTraining[i]! < toHoldout[i]!) closer++
  const closerToTraining = toTraining.length === 0 ? 0 : closer / toTraining.length
  return { score: Math.min((1 - closerToTraining) * 2, 1), closerToTraining, closerToHoldout: 1 - closerToTraining }
}
