import { Data } from "effect"

/** Losses of one finished epoch: the means over its steps. */
export interface EpochLosses {
  readonly generator: number
  readonly discriminator: number
}

export interface DpOptions {
  /**
   * The privacy budget ε the whole model may spend (finite, above 0): the preprocessing (row count, bounds,
   * categories) and DP-SGD together. δ is min(1e-5, 1 / (10 · rows)) for the released row count.
   */
  readonly targetEpsilon: number
  /** The clipping norm C of each per-sample gradient; 1 by default (Opacus's and SmartNoise's). */
  readonly maxGradNorm?: number
  /** σ; by default searched so that the planned steps spend at most the training's share of the target ε. */
  readonly noiseMultiplier?: number
  /**
   * A secret every draw of the training is keyed with (privacy/secretRandom.ts): the mechanisms' noise, DP-SGD's
   * batches and noise, everything. Without it the draws come from the seed, and anyone who knows the seed can replay
   * the noise; a service must pass one that it keeps to itself. The same secret and seed give the same model.
   */
  readonly noiseSecret?: string
}

export interface CtganOptions {
  readonly seed: number
  readonly epochs: number
  /** Rows per step; a multiple of pac. */
  readonly batchSize: number
  /** Rows packed into one discriminator input (PacGAN); 10 by default, and always 1 under DP. */
  readonly pac?: number
  /** Size of the generator's noise input; 128 by default. */
  readonly embeddingDim?: number
  /** Residual layer sizes of the generator; (256, 256) by default. */
  readonly generatorDims?: ReadonlyArray<number>
  /** Hidden layer sizes of the discriminator; (256, 256) by default. */
  readonly discriminatorDims?: ReadonlyArray<number>
  /** After each epoch (numbered from 1), with its mean losses. */
  readonly onEpoch?: (epoch: number, losses: EpochLosses) => void
  /** Fraction of the training done, 0..1, after each step. */
  readonly onProgress?: (fraction: number) => void
  /** Train DP-CTGAN: DP-SGD on the discriminator within this budget. */
  readonly dp?: DpOptions
  /**
   * Threads the training may use: 1 (the default) or 2, data parallel (a second thread computes the gradients of
   * part of every batch; the two average them before each update). A seed reproduces a training for the same
   * thread count. DP-CTGAN and batches of a single pack always train on one thread.
   */
  readonly threads?: 1 | 2
}

/** SDV's CTGAN defaults (ctgan/synthesizers/ctgan.py). */
export const CTGAN_DEFAULTS = {
  pac: 10,
  embeddingDim: 128,
  generatorDims: [256, 256],
  discriminatorDims: [256, 256],
  learningRate: 2e-4,
  beta1: 0.5,
  beta2: 0.9,
  weightDecay: 1e-6,
  gradientPenalty: 10
} as const

export const DEFAULT_MAX_GRAD_NORM = 1

/** The options cannot describe a training (a batch that is not a multiple of pac, no rows, …). */
export class CtganOptionsError extends Data.TaggedError("CtganOptionsError")<{ readonly message: string }> {}

/** The spec's "invalid epsilon": the target ε is not a finite number above 0. */
export class InvalidEpsilon extends Data.TaggedError("InvalidEpsilon")<{ readonly message: string }> {}

/** The spec's "privacy budget exceeded": no useful training fits within the target ε. */
export class PrivacyBudgetExceeded extends Data.TaggedError("PrivacyBudgetExceeded")<{ readonly message: string }> {}

export type CtganFitError = CtganOptionsError | InvalidEpsilon | PrivacyBudgetExceeded

const isPositiveInteger = (value: number) => Number.isInteger(value) && value > 0

/** The options with SDV's defaults filled in (pac 1 under DP). */
export interface Settings {
  readonly seed: number
  readonly epochs: number
  readonly batchSize: number
  readonly pac: number
  readonly embeddingDim: number
  readonly generatorDims: ReadonlyArray<number>
  readonly discriminatorDims: ReadonlyArray<number>
}

export const settingsOf = (rows: number, options: CtganOptions): Settings => {
  const pac = options.dp === undefined ? options.pac ?? CTGAN_DEFAULTS.pac : 1
  const settings: Settings = {
    seed: options.seed,
    epochs: options.epochs,
    batchSize: options.batchSize,
    pac,
    embeddingDim: options.embeddingDim ?? CTGAN_DEFAULTS.embeddingDim,
    generatorDims: options.generatorDims ?? CTGAN_DEFAULTS.generatorDims,
    discriminatorDims: options.discriminatorDims ?? CTGAN_DEFAULTS.discriminatorDims
  }
  const problems = [
    rows < 1 ? "the table has no rows" : null,
    isPositiveInteger(settings.epochs) ? null : `epochs must be a whole number above 0 (got ${settings.epochs})`,
    isPositiveInteger(pac) ? null : `pac must be a whole number above 0 (got ${pac})`,
    isPositiveInteger(settings.batchSize) && settings.batchSize % pac === 0
      ? null
      : `batch_size must be a whole multiple of pac = ${pac} (got ${settings.batchSize})`,
    isPositiveInteger(settings.embeddingDim) ? null : `embeddingDim must be a whole number above 0 (got ${settings.embeddingDim})`,
    [...settings.generatorDims, ...settings.discriminatorDims].every(isPositiveInteger) ? null : "layer sizes must be whole numbers above 0"
  ].filter((problem) => problem !== null)
  if (problems.length > 0) throw new CtganOptionsError({ message: problems.join("; ") })
  return settings
}
