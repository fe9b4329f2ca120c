import { chiSquareSurvival } from "./special/chiSquare.ts"

export interface ChiSquareResult {
  /** Pearson's statistic on relative frequencies: Σ (f_synthetic − f_real)²/f_real over the real categories. */
  readonly statistic: number
  readonly pValue: number
}

/**
 * SDMetrics' CSTest (scipy.stats.chisquare(f_obs, f_exp)): observed = the synthetic column's relative frequencies,
 * expected = the real column's, over the real categories plus any only the synthetic column has (counted 1e-6 in the
 * real one, as SDMetrics' get_frequencies regularises), with a missing value a category of its own (SDMetrics
 * counts the raw values, NaN included). Degrees of freedom: categories − 1; a single category scores 1. Because
 * frequencies, not counts, are compared, the statistic does not grow with the sample: the p-value says how far
 * apart the two distributions are, not how sure one can be that they differ. Ids: −1 missing, else 0 … size − 1.
 */
export const chiSquareTest = (real: Int32Array, synthetic: Int32Array, size: number): ChiSquareResult | null => {
  if (real.length === 0 || synthetic.length === 0) return null
  // Slot 0 is "missing", slot id + 1 a label.
  const realCounts = new Float64Array(size + 1), syntheticCounts = new Float64Array(size + 1)
  for (const id of real) realCounts[id + 1]!++
  for (const id of synthetic) syntheticCounts[id + 1]!++
  let realTotal = real.length
  for (let slot = 0; slot <= size; slot++) {
    if (syntheticCounts[slot]! > 0 && realCounts[slot] === 0) {
      realCounts[slot] = 1e-6
      realTotal += 1e-6
    }
  }
  let categories = 0, statistic = 0
  for (let slot = 0; slot <= size; slot++) {
    if (realCounts[slot] === 0) continue
    categories++
    const expected = realCounts[slot]! / realTotal
    const observed = syntheticCounts[slot]! / synthetic.length
    statistic += (observed - expected) ** 2 / expected
  }
  if (categories === 1) return { statistic, pValue: 1 }
  return { statistic, pValue: chiSquareSurvival(statistic, categories - 1) }
}
