import { durbinMatrixCdf } from "./durbinMatrix.ts"
import { pelzGoodCdf } from "./pelzGood.ts"
import { pomeranzCdf } from "./pomeranz.ts"
import { clipProbability } from "./scaling.ts"
import { smirnovSurvival } from "./smirnov.ts"

// Stirling's series coefficients B_2j/(2j(2j−1)), j = 8 … 1, as scipy's _ksstats.
const STIRLING = [
  -0.029550653594771242, 0.00641025641025641, -0.0019175269175269176, 0.0008417508417508417,
  -0.0005952380952380953, 0.0007936507936507937, -0.002777777777777778, 0.08333333333333333
]

/** log(n!/nⁿ) by Stirling's series with n·log n taken out first (no cancellation). */
const logFactorialOverPower = (n: number): number => {
  const r = 1 / n
  let series = 0
  for (const coefficient of STIRLING) series = series * (r / n) + coefficient
  return Math.log(n) / 2 - n + Math.log(2 * Math.PI) / 2 + r * series
}

/**
 * P(D_n ≥ x) of the two-sided one-sample KS statistic, scipy.stats.kstwo.sf(x, n): Simard and L'Ecuyer's choice
 * between exact formulas near the ends, Durbin's matrix, Pomeranz's recursion, the Pelz–Good approximation and
 * twice the one-sided probability, with scipy's cut-offs.
 */
export const kolmogorovSurvival = (n: number, x: number): number => {
  if (Number.isNaN(x) || !(n >= 1) || Math.floor(n) !== n) return NaN
  if (x >= 1) return 0
  if (x <= 0) return 1
  const t = n * x
  if (t <= 1) {
    if (t <= 0.5) return 1
    let cdf: number
    if (n <= 140) {
      cdf = 1
      for (let i = 1; i <= n; i++) cdf *= i * (1 / n) * (2 * t - 1)
    } else {
      cdf = Math.exp(logFactorialOverPower(n) + n * Math.log(2 * t - 1))
    }
    return clipProbability(1 - cdf)
  }
  if (t >= n - 1) return clipProbability(2 * (1 - x) ** n)
  if (x >= 0.5) return clipProbability(2 * smirnovSurvival(n, x))
  const nxSquared = t * x
  if (n <= 140) {
    if (nxSquared <= 0.754693) return clipProbability(1 - durbinMatrixCdf(n, x))
    if (nxSquared <= 4) return clipProbability(1 - pomeranzCdf(n, x))
    return clipProbability(2 * smirnovSurvival(n, x))
  }
  if (nxSquared >= 370) return 0
  if (nxSquared >= 2.2) return clipProbability(2 * smirnovSurvival(n, x))
  const cdf = n <= 100_000 && n * x ** 1.5 <= 1.4 ? durbinMatrixCdf(n, x) : pelzGoodCdf(n, x)
  return clipProbability(1 - cdf)
}
