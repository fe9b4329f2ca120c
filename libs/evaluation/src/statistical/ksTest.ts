import { twoSampleKsStatistic } from "@synth/stats"
import { kolmogorovSurvival } from "./special/kolmogorov.ts"
import { exactTwoSample, roundHalfEven } from "./special/twoSampleExact.ts"

export interface KsTestResult {
  /** sup |F_real − F_synthetic| over the pooled values. */
  readonly statistic: number
  readonly pValue: number
  /** "exact" (lattice-path count) while both samples have at most 10,000 values, "asymp" otherwise, as scipy's auto. */
  readonly method: "exact" | "asymp"
}

/** scipy's MAX_AUTO_N: method="auto" is exact up to this many values in the larger sample. */
const MAX_EXACT_SIZE = 10_000

/**
 * scipy.stats.ks_2samp(a, b) (two-sided, method "auto") on ascending samples without NaN: the exact p-value while
 * max(n₁, n₂) ≤ 10,000, otherwise kstwo.sf(D, round(n₁n₂/(n₁ + n₂))) ("asymp"). Null for an empty sample.
 */
export const ksTest = (a: Float64Array, b: Float64Array): KsTestResult | null => {
  if (a.length === 0 || b.length === 0) return null
  let statistic = twoSampleKsStatistic(a, b)
  if (Math.max(a.length, b.length) <= MAX_EXACT_SIZE) {
    const exact = exactTwoSample(a.length, b.length, statistic)
    if (exact.pValue !== null) return { statistic: exact.statistic, pValue: exact.pValue, method: "exact" }
    // scipy keeps the lattice-snapped statistic when it falls back.
    statistic = exact.statistic
  }
  const m = Math.max(a.length, b.length), n = Math.min(a.length, b.length)
  const effectiveSize = roundHalfEven((m * n) / (m + n))
  return { statistic, pValue: kolmogorovSurvival(effectiveSize, statistic), method: "asymp" }
}
