/**
 * The regularised incomplete beta function I_x(a, b) and its inverse, for the beta marginal. No installed package
 * provides them (see normal.ts); checked against scipy's betainc and betaincinv.
 */
import { logGamma } from "./gamma.ts"

const EPS = 1e-16
const TINY = 1e-300

/** The continued fraction of I_x(a, b) (modified Lentz), convergent for x < (a + 1)/(a + b + 2). */
const continuedFraction = (a: number, b: number, x: number): number => {
  const qab = a + b
  const qap = a + 1
  const qam = a - 1
  let c = 1
  let d = 1 - (qab * x) / qap
  if (Math.abs(d) < TINY) d = TINY
  d = 1 / d
  let h = d
  for (let m = 1; m < 100_000; m++) {
    const m2 = 2 * m
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2))
    d = 1 + aa * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + aa / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    h *= d * c
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2))
    d = 1 + aa * d
    if (Math.abs(d) < TINY) d = TINY
    c = 1 + aa / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPS) break
  }
  return h
}

const logBeta = (a: number, b: number) => logGamma(a) + logGamma(b) - logGamma(a + b)

/** I_x(a, b). */
export const betaRegularized = (x: number, a: number, b: number): number => {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const logFront = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b)
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * continuedFraction(a, b, x)) / a
  return 1 - (Math.exp(logFront) * continuedFraction(b, a, 1 - x)) / b
}

/** x with I_x(a, b) = p: Numerical Recipes' first guess (invbetai) refined by Halley steps. */
export const betaRegularizedInverse = (p: number, a: number, b: number): number => {
  if (p <= 0) return 0
  if (p >= 1) return 1
  let x: number
  if (a >= 1 && b >= 1) {
    const pp = p < 0.5 ? p : 1 - p
    const t = Math.sqrt(-2 * Math.log(pp))
    let guess = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t
    if (p < 0.5) guess = -guess
    const al = (guess * guess - 3) / 6
    const h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1))
    const w = (guess * Math.sqrt(al + h)) / h - (1 / (2 * b - 1) - 1 / (2 * a - 1)) * (al + 5 / 6 - 2 / (3 * h))
    x = a / (a + b * Math.exp(2 * w))
  } else {
    const lna = Math.log(a / (a + b))
    const lnb = Math.log(b / (a + b))
    const t = Math.exp(a * lna) / a
    const u = Math.exp(b * lnb) / b
    const w = t + u
    x = p < t / w ? Math.pow(a * w * p, 1 / a) : 1 - Math.pow(b * w * (1 - p), 1 / b)
  }
  const a1 = a - 1
  const b1 = b - 1
  const logNorm = logBeta(a, b)
  for (let iteration = 0; iteration < 100; iteration++) {
    if (x === 0 || x === 1) return x
    const error = betaRegularized(x, a, b) - p
    const density = Math.exp(a1 * Math.log(x) + b1 * Math.log1p(-x) - logNorm)
    if (density === 0 || !Number.isFinite(density)) break
    const newtonStep = error / density
    const step = newtonStep / (1 - 0.5 * Math.min(1, newtonStep * (a1 / x - b1 / (1 - x))))
    x -= step
    if (x <= 0) x = 0.5 * (x + step)
    if (x >= 1) x = 0.5 * (x + step + 1)
    if (Math.abs(step) < 1e-14 * x && iteration > 0) break
  }
  return x
}
