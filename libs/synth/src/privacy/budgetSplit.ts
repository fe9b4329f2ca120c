/**
 * How a DP-CTGAN training divides its target ε (and δ) between what it learns before training (the preprocessing:
 * the row count, every column's bounds, categories and missing values) and DP-SGD itself. Basic composition: the
 * preprocessing's releases are (ε_pre, δ_pre)-DP together, the training (ε_train, δ_train)-DP given them, so the
 * whole model is (ε_pre + ε_train, δ_pre + δ_train)-DP.
 *
 * The split depends on the target and the row count only, never on the table's columns, so that the DP
 * configuration check (which knows neither the columns nor which of them the job will learn) computes the training's
 * share exactly as the training does.
 */

/** The share of the target ε spent on the preprocessing; the rest is the training's. */
export const PREPROCESSING_SHARE = 0.25
/** The share of the preprocessing's ε spent on the row count; the columns share the rest equally. */
export const ROW_COUNT_SHARE = 0.1
/** The share of δ that string columns' partition selection may spend (unspent when the table has none). */
export const PREPROCESSING_DELTA_SHARE = 0.5

/**
 * Allocations are shrunk by this factor, so that summing them in floating point (in any order) can never exceed
 * what they were cut from: the sum of k allocations errs by at most k ulps, far below 1e-9 of it.
 */
const ROUNDING_MARGIN = 1 - 1e-9

export interface BudgetSplit {
  readonly targetEpsilon: number
  /** What the preprocessing's releases spend together, at most. */
  readonly preprocessing: number
  /** What DP-SGD may spend: the largest value whose floating-point sum with `preprocessing` stays within the target. */
  readonly training: number
}

export const budgetSplit = (targetEpsilon: number): BudgetSplit => {
  const preprocessing = targetEpsilon * PREPROCESSING_SHARE
  let training = targetEpsilon - preprocessing
  // The reported total is preprocessing + training spent; floating-point rounding must not lift it over the target.
  while (preprocessing + training > targetEpsilon) training -= Math.abs(training) * Number.EPSILON
  return { targetEpsilon, preprocessing, training }
}

/** δ for a table of `rows` rows: at most 1e-5, and a tenth of 1/rows, so no single row's leak is "allowed". */
export const defaultDelta = (rows: number): number => Math.min(1e-5, 1 / (10 * rows))

export interface DeltaSplit {
  readonly total: number
  readonly preprocessing: number
  readonly training: number
}

export const deltaSplit = (rows: number): DeltaSplit => {
  const total = defaultDelta(rows)
  const preprocessing = total * PREPROCESSING_DELTA_SHARE
  return { total, preprocessing, training: total - preprocessing }
}

export type ColumnKind = "continuous" | "boolean" | "string"

export interface ColumnAllocation {
  readonly epsilon: number
  /** Only string columns spend δ (their labels are released by partition selection). */
  readonly delta: number
}

export interface PreprocessingAllocation {
  readonly rowCount: number
  readonly columns: ReadonlyArray<number>
}

/**
 * The preprocessing's ε: ROW_COUNT_SHARE of it to the row count, the rest equally to the columns. Every column gets
 * the same ε because every column needs its one release (bounds or categories) to be modelled at all; a wider table
 * pays with more noise per column.
 */
export const allocatePreprocessing = (epsilon: number, columns: ReadonlyArray<ColumnKind>): PreprocessingAllocation => {
  const perColumn = ((epsilon * (1 - ROW_COUNT_SHARE)) / Math.max(1, columns.length)) * ROUNDING_MARGIN
  return { rowCount: epsilon * ROW_COUNT_SHARE * ROUNDING_MARGIN, columns: columns.map(() => perColumn) }
}

/** The preprocessing's δ, equally to the string columns (nothing else spends δ). */
export const allocateDelta = (delta: number, columns: ReadonlyArray<ColumnKind>): ReadonlyArray<number> => {
  const strings = columns.filter((kind) => kind === "string").length
  return columns.map((kind) => (kind === "string" ? (delta / strings) * ROUNDING_MARGIN : 0))
}
