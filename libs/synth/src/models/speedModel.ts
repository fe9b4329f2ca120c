/**
 * How long a generation job takes, from what is known when it is requested: the training table's size and encoded
 * width, the rows asked for, epochs and batch size. Used for the `estimated_time` of a generation request (the
 * gateway, from the dataset's schema) and again by the worker once it has read the table (exact widths).
 *
 * Coefficients are measured, not guessed:
 * - gaussian_copula: `test/bench/copula.bench.ts` on the 2-vCPU machine, 2026-11-22 (≈ 1.3 s fixed: the worker
 *   thread starts (tsx), the table is read and the output stored; fit ≈ 1.4 µs per fitted row and
 *   column, the fit bounded to 100,000 rows; sampling ≈ 0.15 µs per row and column; storing ≈ 0.25 µs per cell);
 *   the bench prints this model's estimate beside each measured time.
 * - ctgan, tvae: the direct training step on one thread (docs/neural-generators.md, 2026-11-26): a CTGAN step
 *   ~57 ms on diamonds (encoded ~100 wide), a TVAE step ~14 ms on telco_churn, i.e. ~60 ms and ~15 ms at the
 *   reference width 160; scaled linearly by batch size and by width. On two threads a training is faster still
 *   (docs/benchmarks.md), so these err on the long side.
 * - dp-ctgan: the direct step with per-sample clipping, ~1.25× CTGAN's direct step on telco_churn and credit_data
 *   (docs/benchmarks.md, "DP-CTGAN direct step", 2026-11-28), so ~75 ms at the reference width.
 */

export type SpeedModelGenerator = "ctgan" | "dp-ctgan" | "tvae" | "gaussian_copula"

/** What the estimate needs of a column: its kind, and for categories how many distinct values (an estimate is fine). */
export type WidthColumn =
  | { readonly kind: "continuous"; readonly hasMissing: boolean }
  | { readonly kind: "categorical"; readonly categories: number }

export interface SpeedModelInput {
  readonly generator: SpeedModelGenerator
  readonly trainingRows: number
  readonly columns: ReadonlyArray<WidthColumn>
  readonly numRows: number
  readonly epochs: number
  readonly batchSize: number
}

/** Mode-specific normalisation: one scalar plus up to 10 mode slots, and 2 slots more for a missing flag. */
const continuousWidth = (hasMissing: boolean) => 11 + (hasMissing ? 2 : 0)
/** One-hot slots a categorical column takes at most (the transformer's frequent categories plus "other"). */
const maxCategoricalWidth = 301

export const encodedWidth = (columns: ReadonlyArray<WidthColumn>): number =>
  columns.reduce(
    (width, column) =>
      width + (column.kind === "continuous" ? continuousWidth(column.hasMissing) : Math.min(column.categories + 1, maxCategoricalWidth)),
    0
  )

const copula = { fixedSeconds: 1.3, fitPerCell: 1.4e-6, maxFitRows: 100_000, samplePerCell: 0.15e-6, storePerCell: 0.25e-6 }
const neural = {
  referenceBatch: 500,
  referenceWidth: 160,
  ctganStepSeconds: 0.06,
  tvaeStepSeconds: 0.015,
  dpCtganStepSeconds: 0.075,
  /** Rows per second the trained networks decode when sampling (forward passes only), plus storing. */
  samplePerCell: 0.4e-6
}

/** Seconds a neural training step takes at this batch and width: the measured step, mostly batch-bound. */
const stepSeconds = (reference: number, batchSize: number, width: number) =>
  reference * (batchSize / neural.referenceBatch) * (0.85 + 0.15 * (width / neural.referenceWidth))

/** The estimated seconds for a whole job (queueing not included). */
export const estimateSeconds = (input: SpeedModelInput): number => {
  const columns = Math.max(1, input.columns.length)
  if (input.generator === "gaussian_copula") {
    const fitRows = Math.min(input.trainingRows, copula.maxFitRows)
    return copula.fixedSeconds + copula.fitPerCell * fitRows * columns +
      (copula.samplePerCell + copula.storePerCell) * input.numRows * columns
  }
  const width = encodedWidth(input.columns)
  // Full batches only, for every neural model (CTGAN draws its batches; TVAE leaves a short last batch to the next shuffle).
  const stepsPerEpoch = Math.max(1, Math.floor(input.trainingRows / input.batchSize))
  const reference = input.generator === "tvae"
    ? neural.tvaeStepSeconds
    : input.generator === "dp-ctgan"
    ? neural.dpCtganStepSeconds
    : neural.ctganStepSeconds
  const step = stepSeconds(reference, input.batchSize, width)
  return 1 + step * stepsPerEpoch * input.epochs + neural.samplePerCell * input.numRows * width
}

/** A duration as people say it: "about 40 seconds", "about 3 minutes", "about 2 hours". */
export const describeDuration = (seconds: number): string => {
  if (seconds < 1.5) return "about 1 second"
  if (seconds < 90) return `about ${Math.round(seconds)} seconds`
  const minutes = seconds / 60
  if (minutes < 90) return `about ${Math.round(minutes)} minutes`
  // From 90 minutes on, hours round to 2 or more: "about 1 hour" never comes up.
  return `about ${Math.round(minutes / 60)} hours`
}
