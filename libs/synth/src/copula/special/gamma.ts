/**
 * log Γ, digamma, trigamma and the regularised incomplete gamma function P(a, x) with its inverse: needed by the
 * gamma marginal and its maximum-likelihood fit. No installed package provides them (see normal.ts); checked
 * against scipy's gammaln, psi, polygamma, gammainc and gammaincinv.
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

/** ψ(x) for x > 0: recurrence up to x ≥ 6, then the asymptotic series. */
export const digamma = (x: number): number => {
  let result = 0
  while (x < 10) {
    result -= 1 / x
    x += 1
  }
  const inverse = 1 / x
  const inverseSquared = inverse * inverse
  return (
    result + Math.log(x) - 0.5 * inverse -
    inverseSquared * (1 / 12 - inverseSquared * (1 / 120 - inverseSquared * (1 / 252 - inverseSquared * (1 / 240 - inverseSquared / 132))))
  )
}

/** ψ'(x) for x > 0: recurrence up to x ≥ 6, then the asymptotic series. */
export const trigamma = (x: number): number => {
  let result = 0
  while (x < 10) {
    result += 1 / (x * x)
    x += 1
  }
  const inverse = 1 / x
  const inverseSquared = inverse * inverse
  return (
    result + inverse + 0.5 * inverseSquared +
    inverse * inverseSquared * (1 / 6 - inverseSquared * (1 / 30 - inverseSquared * (1 / 42 - inverseSquared / 30)))
  )
}

import { gaussLegendre } from "./gaussLegendre.ts"

const EPS = 1e-16
const TINY = 1e-300

/** P(a, x) by its series; converges quickly for x < a + 1. */
const lowerSeries = (a: number, x: number, logPrefix: number): number => {
  let term = 1 / a
  let sum = term
  for (let n = 1; n < 100_000; n++) {
    term *= x / (a + n)
    sum += term
    if (Math.abs(term) < Math.abs(sum) * EPS) break
  }
  return sum * Math.exp(logPrefix)
}

/** Q(a, x) = 1 − P(a, x) by Legendre's continued fraction (modified Lentz); converges quickly for x ≥ a + 1. */
const upperContinuedFraction = (a: number, x: number, logPrefix: number): number => {
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < 100_000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPS) break
  }
  return Math.exp(logPrefix) * h
}

/** Above this shape the series and continued fraction need O(√a) terms; quadrature takes over (as NR3's gammpapprox). */
const QUADRATURE_SHAPE = 100
const quadrature = gaussLegendre(40)

/**
 * P(a, x) (or Q) for large a by Gauss–Legendre quadrature of t^(a−1)e^(−t) between x and a point far in the tail
 * (within 12√a of the mode the integrand's mass is all there is), as Numerical Recipes' gammpapprox.
 */
const gammaByQuadrature = (a: number, x: number, upper: boolean): number => {
  const a1 = a - 1, logA1 = Math.log(a1), sqrtA1 = Math.sqrt(a1)
  const end = x > a1 ? Math.max(a1 + 11.5 * sqrtA1, x + 6 * sqrtA1) : Math.max(0, Math.min(a1 - 7.5 * sqrtA1, x - 5 * sqrtA1))
  let sum = 0
  for (let j = 0; j < quadrature.nodes.length; j++) {
    const t = x + (end - x) * quadrature.nodes[j]!
    sum += quadrature.weights[j]! * Math.exp(-(t - a1) + a1 * (Math.log(t) - logA1))
  }
  const integral = sum * (end - x) * Math.exp(a1 * (logA1 - 1) - logGamma(a))
  // integral is Q(a, x) when x > a − 1 (integrated upwards) and −P(a, x) otherwise.
  if (x > a1) return upper ? integral : 1 - integral
  return upper ? 1 + integral : -integral
}

/** The regularised lower incomplete gamma function P(a, x) = γ(a, x)/Γ(a). */
export const gammaP = (a: number, x: number): number => {
  if (x <= 0) return 0
  if (x === Infinity) return 1
  if (a >= QUADRATURE_SHAPE) return gammaByQuadrature(a, x, false)
  const logPrefix = -x + a * Math.log(x) - logGamma(a)
  return x < a + 1 ? lowerSeries(a, x, logPrefix) : 1 - upperContinuedFraction(a, x, logPrefix)
}

/** The regularised upper incomplete gamma function Q(a, x) = 1 − P(a, x), precise where P is near 1. */
export const gammaQ = (a: number, x: number): number => {
  if (x <= 0) return 1
  if (x === Infinity) return 0
  if (a >= QUADRATURE_SHAPE) return gammaByQuadrature(a, x, true)
  const logPrefix = -x + a * Math.log(x) - logGamma(a)
  return x < a + 1 ? 1 - lowerSeries(a, x, logPrefix) : upperContinuedFraction(a, x, logPrefix)
}

/** x with P(a, x) = p: a first guess (Numerical Recipes' invgammp) refined by Halley steps. */
export const gammaPInverse = (p: number, a: number): number => {
  if (p <= 0) return 0
  if (p >= 1) return Infinity
  const a1 = a - 1
  const logGammaA = logGamma(a)
  const lna1 = a > 1 ? Math.log(a1) : 0
  const afac = a > 1 ? Math.exp(a1 * (lna1 - 1) - logGammaA) : 0
  let x: number
  if (a > 1) {
    const pp = p < 0.5 ? p : 1 - p
    const t = Math.sqrt(-2 * Math.log(pp))
    let guess = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t
    if (p < 0.5) guess = -guess
    x = Math.max(1e-3, a * Math.pow(1 - 1 / (9 * a) - guess / (3 * Math.sqrt(a)), 3))
  } else {
    const t = 1 - a * (0.253 + a * 0.12)
    x = p < t ? Math.pow(p / t, 1 / a) : 1 - Math.log(1 - (p - t) / (1 - t))
  }
  for (let iteration = 0; iteration < 100; iteration++) {
    if (x <= 0) return 0
    // P(x) − p, computed from the upper tail when p is close to 1 so that it keeps its precision.
    const residual = p > 0.9 ? 1 - p - gammaQ(a, x) : gammaP(a, x) - p
    const density = a > 1 ? afac * Math.exp(-(x - a1) + a1 * (Math.log(x) - lna1)) : Math.exp(-x + a1 * Math.log(x) - logGammaA)
    if (density === 0) break
    const newtonStep = residual / density
    const step = newtonStep / (1 - 0.5 * Math.min(1, newtonStep * (a1 / x - 1)))
    x -= step
    if (x <= 0) x = 0.5 * (x + step)
    if (Math.abs(step) < 1e-14 * x) break
  }
  return x
}
