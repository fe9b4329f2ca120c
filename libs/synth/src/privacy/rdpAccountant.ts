import { Effect } from "effect"
import { logErfc } from "../copula/special/normal.ts"

/**
 * Rényi differential privacy of the sampled Gaussian mechanism (DP-SGD), as Opacus's RDPAccountant computes it
 * (opacus/accountants/analysis/rdp.py, after TF Privacy; Mironov, Talwar & Zhang 2019, section 3.3): the RDP of one
 * step at each order α, times the number of steps, converted to (ε, δ) by Balle et al. 2020 (theorem 21) at the best
 * order. Same orders, same formulas, same search for a noise multiplier: checked against Opacus 1.5.4 to 1e-9
 * relative (reference/rdp_reference.py → fixtures/rdp.json). No maintained JavaScript package implements it.
 */

/** Opacus's RDPAccountant.DEFAULT_ALPHAS: 1.1 … 10.9 by tenths, then 12 … 63. */
export const DEFAULT_ORDERS: ReadonlyArray<number> = [
  ...Array.from({ length: 99 }, (_, x) => 1 + (x + 1) / 10),
  ...Array.from({ length: 52 }, (_, x) => 12 + x)
]

export interface Mechanism {
  /** σ: the noise's standard deviation over the clipping norm. */
  readonly noiseMultiplier: number
  /** q: the chance each example is in a batch (batch size / rows). */
  readonly sampleRate: number
  readonly steps: number
}

export interface PrivacySpent {
  readonly epsilon: number
  /** The order the conversion was tightest at. */
  readonly order: number
}

/** The (ε, δ) conversion at one order (Balle et al. 2020, theorem 21, as Opacus's get_privacy_spent). */
const epsilonAt = (mechanism: Mechanism, order: number, delta: number): number => {
  const rdp = rdpOfStep(mechanism.sampleRate, mechanism.noiseMultiplier, order) * mechanism.steps
  return rdp - (Math.log(delta) + Math.log(order)) / (order - 1) + Math.log((order - 1) / order)
}

/** numpy's nanargmin: the first smallest, NaNs skipped. */
const tighter = (best: PrivacySpent, epsilon: number, order: number): PrivacySpent =>
  epsilon < best.epsilon ? { epsilon, order } : best

const NOTHING_SPENT_YET: PrivacySpent = { epsilon: Infinity, order: NaN }

/** ε for δ after `steps` steps of the sampled Gaussian mechanism. */
export const privacySpent = (mechanism: Mechanism, delta: number, orders: ReadonlyArray<number> = DEFAULT_ORDERS): PrivacySpent =>
  orders.reduce((best, order) => tighter(best, epsilonAt(mechanism, order, delta), order), NOTHING_SPENT_YET)

/**
 * `privacySpent` that hands the event loop back between orders: one order can take milliseconds (a fractional
 * order's series runs to thousands of terms when the sampling rate is high and the noise large), and a server must
 * not stall for the hundreds of them a noise-multiplier search evaluates.
 */
export const privacySpentYielding = (
  mechanism: Mechanism,
  delta: number,
  orders: ReadonlyArray<number> = DEFAULT_ORDERS
): Effect.Effect<PrivacySpent> =>
  Effect.reduce(orders, () => NOTHING_SPENT_YET, (best, order) =>
    Effect.andThen(Effect.yieldNow, Effect.sync(() => tighter(best, epsilonAt(mechanism, order, delta), order))))

/** Opacus's accountants.utils.MAX_SIGMA: past this no noise multiplier is searched. */
export const MAX_NOISE_MULTIPLIER = 1e6

export interface EpsilonTarget {
  readonly epsilon: number
  readonly delta: number
  readonly sampleRate: number
  readonly steps: number
}

/**
 * Opacus's get_noise_multiplier: doubling from 20 until ε is below the target, then bisection until it is within
 * `tolerance` below it. null when even MAX_NOISE_MULTIPLIER spends more (Opacus: "The privacy budget is too low.").
 */
const searchNoiseMultiplier = (
  target: EpsilonTarget,
  tolerance: number,
  spentWith: (noiseMultiplier: number) => Effect.Effect<number>
): Effect.Effect<number | null> =>
  Effect.gen(function* () {
    let epsilonHigh = Infinity
    let low = 0
    let high = 10
    while (epsilonHigh > target.epsilon) {
      high *= 2
      epsilonHigh = yield* spentWith(high)
      if (high > MAX_NOISE_MULTIPLIER) return null
    }
    while (target.epsilon - epsilonHigh > tolerance) {
      const middle = (low + high) / 2
      const epsilon = yield* spentWith(middle)
      if (epsilon < target.epsilon) {
        high = middle
        epsilonHigh = epsilon
      } else {
        low = middle
      }
    }
    return high
  })

const mechanismOf = (target: EpsilonTarget, noiseMultiplier: number): Mechanism => ({
  noiseMultiplier,
  sampleRate: target.sampleRate,
  steps: target.steps
})

/** The noise multiplier that spends at most `target.epsilon` (within `tolerance`), or null (see searchNoiseMultiplier). */
export const noiseMultiplierFor = (target: EpsilonTarget, tolerance = 0.01): number | null =>
  Effect.runSync(searchNoiseMultiplier(target, tolerance, (sigma) =>
    Effect.sync(() => privacySpent(mechanismOf(target, sigma), target.delta).epsilon)))

/** `noiseMultiplierFor`, handing the event loop back between orders (see privacySpentYielding). */
export const noiseMultiplierForYielding = (target: EpsilonTarget, tolerance = 0.01): Effect.Effect<number | null> =>
  searchNoiseMultiplier(target, tolerance, (sigma) =>
    Effect.map(privacySpentYielding(mechanismOf(target, sigma), target.delta), ({ epsilon }) => epsilon))

/** RDP of one step at order α (Opacus's _compute_rdp). */
const rdpOfStep = (q: number, sigma: number, order: number): number => {
  if (q === 0) return 0
  if (sigma === 0) return Infinity
  if (q === 1) return order / (2 * sigma * sigma)
  if (!Number.isFinite(order)) return Infinity
  const logA = Number.isInteger(order) ? logAForIntegerOrder(q, sigma, order) : logAForFractionalOrder(q, sigma, order)
  return logA / (order - 1)
}

const logAdd = (x: number, y: number): number => {
  const a = Math.min(x, y)
  const b = Math.max(x, y)
  if (a === -Infinity) return b
  return Math.log1p(Math.exp(a - b)) + b
}

const logSubtract = (x: number, y: number): number => {
  if (x < y) throw new RangeError("a log-space difference must not be negative")
  if (y === -Infinity) return x
  if (x === y) return -Infinity
  const difference = Math.expm1(x - y)
  return Number.isFinite(difference) ? Math.log(difference) + y : x
}

/**
 * The binomial coefficients C(n, 0), C(n, 1), … for real n, each from the one before as C(n, k) = C(n, k − 1)·(n − k + 1)/k,
 * so a series of k terms costs k multiplications (recomputing each product from scratch made a fractional order's
 * series, which runs to a million terms at a sampling rate near ½, quadratic: minutes for one noise search). Paired
 * this way each factor past k > n is below 1 in size, so the running product never overflows (scipy's special.binom
 * switches to a beta function there; they agree to rounding).
 */
const binomialCoefficients = (n: number) => {
  let coefficient = 1
  let k = 0
  return {
    /** C(n, k) for the next k, starting at 0. */
    next: (): number => {
      if (k > 0) coefficient *= (n - k + 1) / k
      k++
      return coefficient
    }
  }
}

/** log A_α for whole α: a finite binomial sum. */
const logAForIntegerOrder = (q: number, sigma: number, order: number): number => {
  let logA = -Infinity
  const coefficients = binomialCoefficients(order)
  for (let i = 0; i <= order; i++) {
    const logCoefficient = Math.log(coefficients.next()) + i * Math.log(q) + (order - i) * Math.log(1 - q)
    logA = logAdd(logA, logCoefficient + (i * i - i) / (2 * sigma * sigma))
  }
  return logA
}

/** log A_α for fractional α: two tails of an infinite series, summed until their terms fall below e^-30. */
const logAForFractionalOrder = (q: number, sigma: number, order: number): number => {
  let logA0 = -Infinity
  let logA1 = -Infinity
  const z0 = sigma * sigma * Math.log(1 / q - 1) + 0.5
  const coefficients = binomialCoefficients(order)
  for (let i = 0; ; i++) {
    const coefficient = coefficients.next()
    const logCoefficient = Math.log(Math.abs(coefficient))
    const j = order - i
    const logT0 = logCoefficient + i * Math.log(q) + j * Math.log(1 - q)
    const logT1 = logCoefficient + j * Math.log(q) + i * Math.log(1 - q)
    const logE0 = Math.log(0.5) + logErfc((i - z0) / (Math.SQRT2 * sigma))
    const logE1 = Math.log(0.5) + logErfc((z0 - j) / (Math.SQRT2 * sigma))
    const logS0 = logT0 + (i * i - i) / (2 * sigma * sigma) + logE0
    const logS1 = logT1 + (j * j - j) / (2 * sigma * sigma) + logE1
    if (coefficient > 0) {
      logA0 = logAdd(logA0, logS0)
      logA1 = logAdd(logA1, logS1)
    } else {
      logA0 = logSubtract(logA0, logS0)
      logA1 = logSubtract(logA1, logS1)
    }
    if (Math.max(logS0, logS1) < -30) break
  }
  return logAdd(logA0, logA1)
}
