import { Effect } from "effect"
import { noiseMultiplierForYielding, privacySpentYielding } from "./rdpAccountant.ts"

/**
 * What a DP-CTGAN training configuration costs in privacy, before any training: DP-SGD on the discriminator samples
 * each row into a batch with probability q = batch_size / rows, for epochs / q steps (as Opacus counts them), with
 * δ = min(1e-5, 1 / (10 · rows)) (below 1/n, so that no single row's leak is "allowed"). The noise multiplier is
 * searched so that the whole training spends at most the target ε.
 *
 * What decides whether training can still learn is the noise on the averaged gradient, σ / batch_size (in units of
 * the clipping norm): more epochs need a larger σ; a larger batch needs a larger σ too (q grows) but less per row
 * (σ ∝ √batch_size, so σ / batch_size ∝ 1/√batch_size). That is why the spec's remedies, fewer epochs or a larger
 * batch, both help. Past MAX_NOISE_PER_ROW the configuration exceeds the budget; past NOISY_NOISE_PER_ROW it is
 * warned about, with the epochs and the batch size that would bring it back. Both thresholds are heuristics from
 * DP-SGD practice (σ ≈ 1 at batches of a few hundred, i.e. ~0.002–0.005) until DP-CTGAN's measured utility
 * calibrates them.
 */
export interface DpConfiguration {
  readonly rows: number
  readonly epochs: number
  readonly batchSize: number
  readonly targetEpsilon: number
  /** The largest batch size a recommendation may name (the request's own bound). */
  readonly maxBatchSize: number
}

/** Above this noise per row (σ / batch_size) the assessment warns that utility will suffer. */
export const NOISY_NOISE_PER_ROW = 0.01
/** Above this noise per row the configuration exceeds the budget: the noise would drown what the model learns. */
export const MAX_NOISE_PER_ROW = 0.05

/** Bands from the spec's guidance (ε ≈ 1 / 5 / 10), split halfway between its anchors. */
export const utilityBands = [
  { below: 3, level: "high_privacy", expectedUtility: "70-80%" },
  { below: 7.5, level: "balanced", expectedUtility: "85-90%" },
  { below: Infinity, level: "high_utility", expectedUtility: "90-95%" }
] as const

export type PrivacyLevel = (typeof utilityBands)[number]["level"]

export interface DpAssessment {
  readonly valid: boolean
  readonly delta: number
  readonly sampleRate: number
  readonly steps: number
  /** The σ that spends the target; null when no σ up to Opacus's limit does. */
  readonly noiseMultiplier: number | null
  /** σ / batch_size: the noise on the averaged gradient, in clipping norms; null with noiseMultiplier. */
  readonly noisePerRow: number | null
  /** What training would spend with that σ (at most the target); null when invalid. */
  readonly epsilon: number | null
  readonly privacyLevel: PrivacyLevel
  readonly expectedUtility: string
  /** Why the configuration is not valid; null when it is. */
  readonly reason: string | null
  readonly warnings: ReadonlyArray<string>
  readonly recommendations: ReadonlyArray<string>
  /** Most epochs that keep the noise per row at or below NOISY_NOISE_PER_ROW at this batch size (null: none, or no change needed). */
  readonly recommendedEpochs: number | null
  /** Smallest batch size (a multiple of 10, at most the rows) that does the same at these epochs. */
  readonly recommendedBatchSize: number | null
}

export const defaultDelta = (rows: number): number => Math.min(1e-5, 1 / (10 * rows))

const stepsOf = (epochs: number, sampleRate: number) => Math.max(1, Math.floor(epochs / sampleRate))

/** The σ the configuration needs for its target (null: none up to Opacus's limit). */
const noiseNeeded = (rows: number, epochs: number, batchSize: number, epsilon: number) => {
  const sampleRate = batchSize / rows
  return noiseMultiplierForYielding({ epsilon, delta: defaultDelta(rows), sampleRate, steps: stepsOf(epochs, sampleRate) })
}

/**
 * Whether a noise per row of at most `limit` (σ = limit · batch_size) keeps this many epochs at this batch size
 * within the target. At that σ the RDP spent is about 2·epochs·α / (rows · limit² · batch_size): monotone, growing
 * with epochs and falling with the batch size, so the most epochs / smallest batch that pass are found by bisection.
 */
const fitsWithin = (config: DpConfiguration, epochs: number, batchSize: number, limit: number) => {
  const sampleRate = batchSize / config.rows
  return Effect.map(
    privacySpentYielding({ noiseMultiplier: limit * batchSize, sampleRate, steps: stepsOf(epochs, sampleRate) }, defaultDelta(config.rows)),
    ({ epsilon }) => epsilon <= config.targetEpsilon
  )
}

/** The largest whole value in [low, high] that passes, given that passing is monotone (true up to a point). */
const largestPassing = (low: number, high: number, passes: (value: number) => Effect.Effect<boolean>) =>
  Effect.gen(function* () {
    if (!(yield* passes(low))) return null
    let good = low
    let bad = high + 1
    while (bad - good > 1) {
      const middle = Math.floor((good + bad) / 2)
      if (yield* passes(middle)) good = middle
      else bad = middle
    }
    return good
  })

export const assessDpConfiguration = (config: DpConfiguration): Effect.Effect<DpAssessment> =>
  Effect.gen(function* () {
    const { batchSize, epochs, rows, targetEpsilon } = config
    const sampleRate = batchSize / rows
    const delta = defaultDelta(rows)
    const steps = stepsOf(epochs, sampleRate)
    const band = utilityBands.find(({ below }) => targetEpsilon < below)!
    const noiseMultiplier = yield* noiseNeeded(rows, epochs, batchSize, targetEpsilon)
    const noisePerRow = noiseMultiplier === null ? null : noiseMultiplier / batchSize
    const usable = noiseMultiplier !== null && noisePerRow !== null && noisePerRow <= MAX_NOISE_PER_ROW
      ? { noiseMultiplier, noisePerRow }
      : null
    const valid = usable !== null
    const epsilon = usable === null
      ? null
      : (yield* privacySpentYielding({ noiseMultiplier: usable.noiseMultiplier, sampleRate, steps }, delta)).epsilon

    const warnings: Array<string> = []
    const noisy = noisePerRow === null || noisePerRow > NOISY_NOISE_PER_ROW
    if (usable !== null && noisy) {
      const { noiseMultiplier, noisePerRow } = usable
      warnings.push(
        `The noise on each averaged gradient (noise multiplier ${round(noiseMultiplier)} / batch_size ${batchSize} = ` +
          `${noisePerRow.toFixed(4)}) is above ${NOISY_NOISE_PER_ROW}: expect lower utility than the band suggests.`
      )
    }
    if (rows < 1000) warnings.push(`With ${rows} rows the noise DP-SGD adds weighs heavily against each batch's signal; utility will be low.`)
    if (sampleRate > 0.25) warnings.push(`batch_size is ${round(sampleRate * 100)}% of the rows: privacy amplification by sampling is weak, so much more noise is needed.`)

    const recommendedEpochs = noisy
      ? yield* largestPassing(1, epochs - 1, (candidate) => fitsWithin(config, candidate, batchSize, NOISY_NOISE_PER_ROW))
      : null
    const largestBatch = Math.floor(Math.min(rows, config.maxBatchSize) / 10) * 10
    const smallestBatch = noisy && largestBatch > batchSize
      ? yield* largestPassing(-largestBatch / 10, -(batchSize / 10 + 1), (negated) => fitsWithin(config, epochs, -negated * 10, NOISY_NOISE_PER_ROW))
      : null
    // Searched in tens: batch sizes stay multiples of 10 (PacGAN packs 10 rows per discriminator input).
    const recommendedBatchSize = smallestBatch === null ? null : -smallestBatch * 10

    const recommendations: Array<string> = []
    const goal = `to bring the noise per row down to ${NOISY_NOISE_PER_ROW}`
    if (recommendedEpochs !== null) recommendations.push(`Reduce epochs to ${recommendedEpochs} or fewer ${goal}.`)
    if (recommendedBatchSize !== null) recommendations.push(`Increase batch_size to ${recommendedBatchSize} or more ${goal}.`)
    if (noisy && recommendations.length === 0) recommendations.push("Raise target_epsilon: at this dataset size no number of epochs or batch size keeps the noise useful.")

    const reason = valid
      ? null
      : noiseMultiplier === null
      ? `privacy budget exceeded: no noise multiplier up to 1e6 keeps ${steps} steps at a sampling rate of ${round(sampleRate)} within ε = ${targetEpsilon}.`
      : `privacy budget exceeded: ε = ${targetEpsilon} over ${steps} steps needs a noise multiplier of ${round(noiseMultiplier)}, ` +
        `${noisePerRow!.toFixed(4)} per row of a ${batchSize}-row batch, above the ${MAX_NOISE_PER_ROW} where training stops learning.`

    return {
      valid,
      delta,
      sampleRate,
      steps,
      noiseMultiplier,
      noisePerRow,
      epsilon,
      privacyLevel: band.level,
      expectedUtility: band.expectedUtility,
      reason,
      warnings,
      recommendations,
      recommendedEpochs,
      recommendedBatchSize
    }
  })

const round = (value: number) => Math.round(value * 100) / 100
