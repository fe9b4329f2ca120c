// cephes' MINLOG, log(2⁻¹⁰⁷⁵): below it even a subnormal result is 0.
const MIN_LOG = -745.1332191019412
const MAX_EXACT_N = 1_000_000

/**
 * P(D⁺_n ≥ x) of the one-sided one-sample KS statistic (scipy.special.smirnov) by Birnbaum and Tingey's sum
 * x·Σ_{v=0}^{⌊n(1−x)⌋} C(n, v)(x + v/n)^(v−1)(1 − x − v/n)^(n−v), with cephes' special cases. cephes sums in
 * double-double; here each term is taken in logarithms and the (positive) terms are summed against the largest, which
 * is as precise where scipy's Kolmogorov distribution calls it (n·x² > 2 or x ≥ 0.5, far from the alternating upper
 * sum cephes switches to for tiny x).
 */
export const smirnovSurvival = (n: number, x: number): number => {
  if (!(n > 0 && x >= 0 && x <= 1)) return NaN
  if (n === 1) return 1 - x
  if (x === 0) return 1
  if (x === 1) return 0
  const nx = n * x
  const below = Math.floor(nx)
  if (below === 0 || (below === 1 && nx === 1)) return 1 - x * (1 + x) ** (n - 1)
  if (-2 * n * x * x < MIN_LOG) return 0
  if (below >= n - 1) return (1 - x) ** n
  if (n > MAX_EXACT_N) {
    const logP = -((6 * n * x + 1) ** 2) / 18 / n
    return logP < -Math.LN2 ? Math.exp(logP) : 1 + Math.expm1(logP)
  }
  const last = n - below - 1
  const logTerms = new Float64Array(last + 1)
  let logBinomial = 0, largest = -Infinity
  for (let v = 0; v <= last; v++) {
    if (v > 0) logBinomial += Math.log(n - v + 1) - Math.log(v)
    const logTerm = logBinomial + (v - 1) * Math.log(x + v / n) + (n - v) * Math.log((n - v) / n - x)
    logTerms[v] = logTerm
    if (logTerm > largest) largest = logTerm
  }
  let sum = 0
  for (let v = 0; v <= last; v++) sum += Math.exp(logTerms[v]! - largest)
  // In logarithms to the end, so a subnormal result survives.
  return Math.min(1, Math.exp(largest + Math.log(x * sum)))
}
