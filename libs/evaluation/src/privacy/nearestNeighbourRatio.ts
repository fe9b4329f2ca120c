import type { SynthTable } from "@synth/synth"
import { type ClosestRecords, closestRecords } from "./closestRecords.ts"
import { median } from "./median.ts"
import { distanceTables } from "./distanceTables.ts"

export interface NearestNeighbourRatio {
  /** Per synthetic row: distance to the closest real row / distance to the second closest (0 … 1). */
  readonly ratios: Float64Array
  readonly median: number
  readonly mean: number
  /** Share of synthetic rows with a ratio below 0.5: much closer to one real row than to any other. */
  readonly shareBelowHalf: number
}

/**
 * Nearest-neighbour distance ratio of each synthetic row among the real rows, with SDMetrics' DCR distance (the mean
 * over the columns of |a − b|/range capped at 1 for numbers, 0/1 inequality for categories, the real table's ranges;
 * see closestRecords). A ratio near 0 singles out one real record; near 1 the row sits among several. When the two
 * closest real rows are both at distance 0 (a real row that occurs twice), the ratio is 1: it singles out neither,
 * and copies are what newRowSynthesis counts. Needs at least two real rows.
 */
export const nearestNeighbourRatio = (real: SynthTable, synthetic: SynthTable): NearestNeighbourRatio => {
  if (real.rowCount < 2) throw new Error("the nearest-neighbour distance ratio needs at least two real rows")
  return nearestNeighbourRatioFrom(closestRecords(distanceTables(synthetic, real)))
}

/** nearestNeighbourRatio from each synthetic row's closest and second-closest distances to the real rows. */
export const nearestNeighbourRatioFrom = ({ nearest, secondNearest }: ClosestRecords): NearestNeighbourRatio => {
  const ratios = nearest.map((distance, i) => (secondNearest[i] === 0 ? 1 : distance / secondNearest[i]!))
  let sum = 0, below = 0
  for (const ratio of ratios) {
    sum += ratio
    if (ratio < 0.5) below++
  }
  const count = ratios.length
  return { ratios, median: median(ratios), mean: count === 0 ? NaN : sum / count, shareBelowHalf: count === 0 ? NaN : below / count }
}
