/**
 * The χ² survival function (scipy.stats.chi2.sf) for the chi-square test. @synth/synth has the incomplete gamma
 * function for its copula marginals but does not export it, so this is a small one of its own: log Γ by Lanczos and
 * Q(a, x) by its series or Legendre's continued fraction, as Numerical Recipes (about 1e-14 relative).
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7
]

/** log Γ(x) for x > 0 (Lanczos, g = 7). */
export const logGamma = (x: number): number => {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x)
  const shifted = x - 1
  let sum = LANCZOS[0]!
  for (let i = 1; i < 9; i++) sum += LANCZOS[i]! / (shifted + i)
  const t = shifted + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum)
}

const EPSILON = 1e-16
const TINY = 1e-300
const MAX_TERMS = 1_000_000

/** P(a, x) by its power series: converges quickly for x < a + 1. */
const lowerSeries = (a: number, x: number, logPrefix: number): number => {
  let term = 1 / a
  let sum = term
  for (let n = 1; n < MAX_TERMS; n++) {
    term *= x / (a + n)
    sum += term
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break
  }
  return sum * Math.exp(logPrefix)
}

/** Q(a, x) by Legendre's continued fraction (modified Lentz): converges quickly for x ≥ a + 1. */
const upperContinuedFraction = (a: number, x: number, logPrefix: number): number => {
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPSILON) break
  }
  return Math.exp(logPrefix) * h
}

/** The regularised upper incomplete gamma function Q(a, x) = Γ(a, x)/Γ(a). */
export const gammaQ = (a: number, x: number): number => {
  if (x <= 0) return 1
  if (x === Infinity) return 0
  const logPrefix = -x + a * Math.log(x) - logGamma(a)
  return x < a + 1 ? 1 - lowerSeries(a, x, logPrefix) : upperContinuedFraction(a, x, logPrefix)
}

/** P(χ²_k > x), scipy.stats.chi2.sf(x, k). */
export const chiSquareSurvival = (x: number, degreesOfFreedom: number): number => {
  if (Number.isNaN(x)) return NaN
  return gammaQ(degreesOfFreedom / 2, x / 2)
}
