import type { Random } from "../random.ts"

/**
 * The two-sided geometric ("discrete Laplace") mechanism for counts of sensitivity 1 (adding or removing one row
 * changes one count by one): P(noise = k) = (1 − a)/(1 + a) · a^|k| with a = e^(−ε), which is ε-DP (Ghosh,
 * Roughgarden & Sundararajan 2009). Integer noise on integer counts: the released value carries none of the
 * floating-point artefacts through which a continuous Laplace sample can betray the exact count (Mironov 2012).
 * No maintained JavaScript package implements it; it is the difference of two geometric draws.
 */
export const discreteLaplace = (epsilon: number, random: Random): number => geometric(epsilon, random) - geometric(epsilon, random)

/** A geometric draw on {0, 1, …} with P(g) = (1 − a)·a^g, a = e^(−ε), by inversion. */
const geometric = (epsilon: number, random: Random): number => Math.floor(Math.log(1 - random.next()) / -epsilon)

/** P(noise ≥ m) for m ≥ 1: a^m / (1 + a). */
export const upperTail = (epsilon: number, m: number): number => Math.exp(-epsilon * m) / (1 + Math.exp(-epsilon))

/**
 * The smallest whole threshold τ such that a count of 1 plus the noise reaches τ with probability at most δ:
 * P(1 + noise ≥ τ) = a^(τ−1) / (1 + a) ≤ δ. A label held by one row is then released with probability at most δ, and
 * a label released at all is held by several rows with overwhelming probability (stability-based partition
 * selection, Korolova et al. 2009; Wilson et al. 2020).
 */
export const selectionThreshold = (epsilon: number, delta: number): number => {
  let threshold = 1 + Math.max(1, Math.ceil(Math.log(1 / (delta * (1 + Math.exp(-epsilon)))) / epsilon))
  // Guard the ceil against rounding: step up until the tail bound provably holds.
  while (upperTail(epsilon, threshold - 1) > delta) threshold += 1
  return threshold
}

/**
 * The smallest whole threshold that the noise alone (a true count of 0) reaches with probability at most
 * `probability`: what a noisy count must reach before it is read as "there are some".
 */
export const noiseFloor = (epsilon: number, probability: number): number => {
  let floor = Math.max(1, Math.ceil(Math.log(1 / (probability * (1 + Math.exp(-epsilon)))) / epsilon))
  while (upperTail(epsilon, floor) > probability) floor += 1
  return floor
}
