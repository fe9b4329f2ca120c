import { Effect } from "effect"
import { type BudgetSplit, budgetSplit, deltaSplit } from "./budgetSplit.ts"
import { noiseMultiplierForYielding, privacySpentYielding } from "./rdpAccountant.ts"

/**
 * What a DP-CTGAN training configuration costs in privacy, before any training. The target ε is split (budgetSplit.ts):
 * a fixed share pays for the preprocessing (the row count, every column's bounds, categories and missing values, each
 * a DP release), the rest for DP-SGD on the discriminator, which samples each row into a batch with probability
 * q = batch_size / rows, for epochs / q steps (as Opacus counts them), at δ_train, half of
 * δ = min(1e-5, 1 / (10 · rows)) (below 1/n, so that no single row's leak is "allowed"; the other half is the
 * preprocessing's). The noise multiplier is searched so that the training spends at most its share; the composed
 * total, preprocessing + training, is what the model reports as spent and never exceeds the target.
 *
 * `rows` is the row count the training will see. The training reads its own, noisy, count (a release of the
 * preprocessing) and plans with exactly this function of it; the check, given the training rows by the service,
 * answers for the exact count, so the two differ by the count's noise only (a standard deviation of about
 * √2 / (0.025·ε) rows: 11 at ε = 5).
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
  /** The total δ the model may spend: min(1e-5, 1 / (10 · rows)), half of it the training's. */
  readonly delta: number
  readonly sampleRate: number
  readonly steps: number
  /** The σ that spends the training's share; null when no σ up to Opacus's limit does. */
  readonly noiseMultiplier: number | null
  /** σ / batch_size: the noise on the averaged gradient, in clipping norms; null with noiseMultiplier. */
  readonly noisePerRow: number | null
  /** What the model would spend in all: the preprocessing's share plus the training's spend (at most the target); null when invalid. */
  readonly epsilon: number | null
  /** The two parts of `epsilon`; null when invalid. */
  readonly budget: { readonly preprocessing: number; readonly training: number } | null
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

/** q: each row's chance of being in a batch; 1 when the batch is as large as the table (or larger). */
export const sampleRateOf = (batchSize: number, rows: number): number => Math.min(1, batchSize / rows)

/** ⌊epochs / q⌋, as Opacus counts the steps of `epochs` passes (one at least). */
export const stepsOf = (epochs: number, sampleRate: number): number => Math.max(1, Math.floor(epochs / sampleRate))

export interface TrainingInput {
  readonly rows: number
  readonly epochs: number
  readonly batchSize: number
  readonly targetEpsilon: number
}

/** The DP-SGD half of a plan: what the check and the training both compute from a row count. */
export interface DpTrainingPlan {
  /** The target's split: the preprocessing's share, and the most the training may spend. */
  readonly budget: BudgetSplit
  readonly delta: ReturnType<typeof deltaSplit>
  readonly sampleRate: number
  readonly steps: number
  /** The σ whose `steps` steps spend at most `budget.training` at `delta.training`; null when none up to 1e6 does. */
  readonly noiseMultiplier: number | null
}

export const dpTrainingPlan = (input: TrainingInput): Effect.Effect<DpTrainingPlan> =>
  Effect.gen(function* () {
    const budget = budgetSplit(input.targetEpsilon)
    const delta = deltaSplit(input.rows)
    const sampleRate = sampleRateOf(input.batchSize, input.rows)
    const steps = stepsOf(input.epochs, sampleRate)
    const noiseMultiplier = yield* noiseMultiplierForYielding({ epsilon: budget.training, delta: delta.training, sampleRate, steps })
    return { budget, delta, sampleRate, steps, noiseMultiplier }
  })

/** What DP-SGD spends with σ over the plan's first `steps` steps. */
export const trainingSpent = (plan: Pick<DpTrainingPlan, "delta" | "sampleRate">, noiseMultiplier: number, steps: number) =>
  steps === 0
    ? Effect.succeed(0)
    : Effect.map(privacySpentYielding({ noiseMultiplier, sampleRate: plan.sampleRate, steps }, plan.delta.training), ({ epsilon }) => epsilon)

/**
 * Whether a noise per row of at most `limit` (σ = limit · batch_size) keeps this many epochs at this batch size
 * within the training's share. At that σ the RDP spent is about 2·epochs·α / (rows · limit² · batch_size): monotone,
 * growing with epochs and falling with the batch size, so the most epochs / smallest batch that pass are found by
 * bisection.
 */
const fitsWithin = (config: DpConfiguration, epochs: number, batchSize: number, limit: number) => {
  const sampleRate = sampleRateOf(batchSize, config.rows)
  return Effect.map(
    trainingSpent({ sampleRate, delta: deltaSplit(config.rows) }, limit * batchSize, stepsOf(epochs, sampleRate)),
    (epsilon) => epsilon <= budgetSplit(config.targetEpsilon).training
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
    const plan = yield* dpTrainingPlan(config)
    const { noiseMultiplier, sampleRate, steps } = plan
    const band = utilityBands.find(({ below }) => targetEpsilon < below)!
    const noisePerRow = noiseMultiplier === null ? null : noiseMultiplier / batchSize
    const usable = noiseMultiplier !== null && noisePerRow !== null && noisePerRow <= MAX_NOISE_PER_ROW
      ? { noiseMultiplier, noisePerRow }
      : null
    const valid = usable !== null
    const training = usable === null ? null : yield* trainingSpent(plan, usable.noiseMultiplier, steps)
    const budget = training === null ? null : { preprocessing: plan.budget.preprocessing, training }

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

    const share = `the training's ε = ${round(plan.budget.training)} of ${targetEpsilon} (the rest pays for the bounds, categories and row count)`
    const reason = valid
      ? null
      : noiseMultiplier === null
      ? `privacy budget exceeded: no noise multiplier up to 1e6 keeps ${steps} steps at a sampling rate of ${round(sampleRate)} within ${share}.`
      : `privacy budget exceeded: ${share} over ${steps} steps needs a noise multiplier of ${round(noiseMultiplier)}, ` +
        `${noisePerRow!.toFixed(4)} per row of a ${batchSize}-row batch, above the ${MAX_NOISE_PER_ROW} where training stops learning.`

    return {
      valid,
      delta: plan.delta.total,
      sampleRate,
      steps,
      noiseMultiplier,
      noisePerRow,
      epsilon: budget === null ? null : budget.preprocessing + budget.training,
      budget,
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
