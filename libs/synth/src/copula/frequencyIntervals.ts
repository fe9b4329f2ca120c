import type { Random } from "../random.ts"
import { normalPpf } from "./special/normal.ts"
import { FLOAT32_EPSILON } from "./marginals/truncatedNormal.ts"

/**
 * SDV's frequency intervals for a discrete variable: values ordered by descending frequency (ties by code), each
 * gets the interval [a, b) of the cumulative frequencies. A value is encoded as a uniform draw inside its interval
 * (RDT's UniformEncoder; SDV's older FrequencyEncoder drew a truncated normal there), so the encoded variable is
 * exactly uniform on [0, 1) and its normal score Φ⁻¹(u) exactly standard normal — no marginal to fit. Decoding
 * finds the interval a uniform falls in; working on normal scores, the bounds are stored as Φ⁻¹(b) so that a
 * sampled z is decoded without computing Φ. Only values that occur get an interval: none is ever invented.
 */
export interface FrequencyIntervals {
  /** The value of each interval (a category code, −1 for missing; or 0/1 for "present"/"missing"). */
  readonly codes: Int32Array
  readonly frequencies: Float64Array
  /** Cumulative frequency where each interval starts. */
  readonly lower: Float64Array
  /** Φ⁻¹ of where each interval ends; the last is +∞. */
  readonly upperScores: Float64Array
}

export const frequencyIntervals = (codes: ReadonlyArray<number>, counts: ReadonlyArray<number>): FrequencyIntervals => {
  const order = codes.map((_, i) => i).filter((i) => counts[i]! > 0)
  order.sort((i, j) => counts[j]! - counts[i]! || codes[i]! - codes[j]!)
  const total = order.reduce((sum, i) => sum + counts[i]!, 0)
  return intervalsFromFrequencies(Int32Array.from(order.map((i) => codes[i]!)), Float64Array.from(order.map((i) => counts[i]! / total)))
}

/** Rebuilds the intervals from stored frequencies (an artifact keeps codes and frequencies only). */
export const intervalsFromFrequencies = (codes: Int32Array, frequencies: Float64Array): FrequencyIntervals => {
  const size = codes.length
  const lower = new Float64Array(size)
  const upperScores = new Float64Array(size)
  let cumulative = 0
  for (let i = 0; i < size; i++) {
    lower[i] = cumulative
    cumulative += frequencies[i]!
    upperScores[i] = i === size - 1 ? Infinity : normalPpf(Math.min(1, cumulative))
  }
  return { codes, frequencies, lower, upperScores }
}

/** The normal score of one occurrence of interval `index`: Φ⁻¹ of a uniform draw in [a, b), clipped as copulas does. */
export const encodeScore = (intervals: FrequencyIntervals, index: number, random: Random): number => {
  const u = intervals.lower[index]! + intervals.frequencies[index]! * random.next()
  return normalPpf(Math.min(1 - FLOAT32_EPSILON, Math.max(FLOAT32_EPSILON, u)))
}

/** The interval a normal score falls in: the first whose upper bound exceeds it. */
export const decodeScore = (intervals: FrequencyIntervals, z: number): number => {
  const bounds = intervals.upperScores
  let low = 0, high = bounds.length - 1
  while (low < high) {
    const middle = (low + high) >>> 1
    if (z < bounds[middle]!) high = middle
    else low = middle + 1
  }
  return low
}
