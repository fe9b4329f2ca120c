import type { Random } from "../random.ts"
import type { PrivacyLedger, QuantileRelease } from "./ledger.ts"

/**
 * A quantile of a numeric column by the exponential mechanism (McSherry & Talwar 2007; the candidate-set form of
 * OpenDP's quantile) over fixed candidates: CANDIDATES evenly spaced points of a range [low, high] that is itself a
 * release (the approximate bounds), so the candidates never depend on the data directly. A candidate c scores
 * u(c) = −|rank(c) − p·n| with rank(c) = #{x < c} below the median and #{x ≤ c} above it, n the count of values; one
 * row more or less moves rank(c) by at most 1 and p·n by p, so u has sensitivity 1, and drawing c with probability
 * ∝ exp(ε·u(c) / 2) is ε-DP. The answer is a grid point: never a value of the data, except where a grid point happens
 * to equal one. A point mass (a column that is often 0) keeps its place: candidates at or beyond it score by the
 * whole mass, unlike the interval form (Smith 2011), whose zero-length intervals between equal values never win.
 */
export const CANDIDATES = 1025

export const candidateOf = (low: number, high: number, index: number): number =>
  index === CANDIDATES - 1 ? high : low + ((high - low) * index) / (CANDIDATES - 1)

/**
 * The mechanism's distribution over the candidates: P(c) ∝ exp(ε·u(c) / 2). `sorted`: the column's present values
 * clamped to [low, high], ascending.
 */
export const quantileProbabilities = (
  sorted: Float64Array,
  probability: number,
  range: { readonly low: number; readonly high: number },
  epsilon: number
): Float64Array => {
  const n = sorted.length
  const target = probability * n
  const inclusive = probability > 0.5
  const weights = new Float64Array(CANDIDATES)
  let below = 0
  let best = -Infinity
  for (let j = 0; j < CANDIDATES; j++) {
    const candidate = candidateOf(range.low, range.high, j)
    while (below < n && (inclusive ? sorted[below]! <= candidate : sorted[below]! < candidate)) below++
    weights[j] = (epsilon * -Math.abs(below - target)) / 2
    if (weights[j]! > best) best = weights[j]!
  }
  let total = 0
  for (let j = 0; j < CANDIDATES; j++) total += weights[j] = Math.exp(weights[j]! - best)
  for (let j = 0; j < CANDIDATES; j++) weights[j]! /= total
  return weights
}

export const exponentialQuantile = (
  ledger: PrivacyLedger,
  column: string,
  sorted: Float64Array,
  probability: number,
  range: { readonly low: number; readonly high: number },
  epsilon: number,
  random: Random
): QuantileRelease => {
  const probabilities = quantileProbabilities(sorted, probability, range, epsilon)
  let chosen = CANDIDATES - 1
  let drawn = random.next()
  for (let j = 0; j < CANDIDATES; j++) {
    drawn -= probabilities[j]!
    if (drawn < 0) {
      chosen = j
      break
    }
  }
  return ledger.record({ _tag: "quantile", column, epsilon, delta: 0, probability, value: candidateOf(range.low, range.high, chosen) })
}
