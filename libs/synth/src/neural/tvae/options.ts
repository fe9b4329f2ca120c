import { Data } from "effect"
import type { SynthTable } from "../../table.ts"

export interface TvaeOptions {
  readonly seed: number
  readonly epochs: number
  readonly batchSize: number
  /** SDV's defaults: 128, (128, 128), (128, 128), 2. */
  readonly embeddingDim?: number | undefined
  readonly compressDims?: ReadonlyArray<number> | undefined
  readonly decompressDims?: ReadonlyArray<number> | undefined
  readonly lossFactor?: number | undefined
  /** After each epoch (numbered from 1), its mean batch loss. */
  readonly onEpoch?: ((epoch: number, losses: { readonly loss: number }) => void) | undefined
  /** Fraction of the training done, 0..1, after each step. */
  readonly onProgress?: ((fraction: number) => void) | undefined
  /**
   * Threads the training may use: 1 (the default) or 2, data parallel (a second thread learns from part of every
   * batch; the two average their gradients before each update). A seed reproduces a training for the same count.
   */
  readonly threads?: 1 | 2 | undefined
}

export interface TvaeSettings {
  readonly epochs: number
  readonly batchSize: number
  readonly embeddingDim: number
  readonly compressDims: ReadonlyArray<number>
  readonly decompressDims: ReadonlyArray<number>
  readonly lossFactor: number
}

/** SDV's optimiser for TVAE: Adam, lr 1e-3, β (0.9, 0.999), L2 weight decay 1e-5 on every parameter. */
export const TVAE_ADAM = { learningRate: 1e-3, beta1: 0.9, beta2: 0.999, weightDecay: 1e-5 } as const

export const TVAE_DEFAULTS = { embeddingDim: 128, compressDims: [128, 128], decompressDims: [128, 128], lossFactor: 2 } as const

/** Options a TVAE cannot train with, or a table it cannot learn from (no rows or no columns). */
export class TvaeFitError extends Data.TaggedError("TvaeFitError")<{ readonly message: string }> {}

const isCount = (value: number, least: number) => Number.isInteger(value) && value >= least

/** The options with SDV's defaults filled in; throws TvaeFitError for what cannot be trained. */
export const validTvaeOptions = (table: SynthTable, options: TvaeOptions): TvaeSettings => {
  const settings: TvaeSettings = {
    epochs: options.epochs,
    batchSize: options.batchSize,
    embeddingDim: options.embeddingDim ?? TVAE_DEFAULTS.embeddingDim,
    compressDims: options.compressDims ?? TVAE_DEFAULTS.compressDims,
    decompressDims: options.decompressDims ?? TVAE_DEFAULTS.decompressDims,
    lossFactor: options.lossFactor ?? TVAE_DEFAULTS.lossFactor
  }
  const problems = [
    table.rowCount < 1 || table.columns.length === 0 ? "the table has no rows or no columns to learn from" : null,
    isCount(settings.epochs, 0) ? null : `epochs must be a whole number ≥ 0, got ${settings.epochs}`,
    isCount(settings.batchSize, 1) ? null : `batchSize must be a whole number ≥ 1, got ${settings.batchSize}`,
    isCount(settings.embeddingDim, 1) ? null : `embeddingDim must be a whole number ≥ 1, got ${settings.embeddingDim}`,
    [...settings.compressDims, ...settings.decompressDims].every((size) => isCount(size, 1)) ? null : "layer sizes must be whole numbers ≥ 1",
    settings.lossFactor > 0 ? null : `lossFactor must be positive, got ${settings.lossFactor}`
  ].filter((problem) => problem !== null)
  if (problems.length > 0) throw new TvaeFitError({ message: problems.join("; ") })
  return settings
}
