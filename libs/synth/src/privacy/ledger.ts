import { Schema } from "effect"

/**
 * The ledger of what a differentially private training learned from the data before DP-SGD: every statistic it
 * uses (the row count, each column's bounds, its categories and their counts, its missing values) is released by a
 * mechanism that writes here what it released and the (ε, δ) it spent. The releases compose by basic composition
 * (ε and δ add up), and the total composes with the training's own guarantee the same way. Stored in the model
 * artifact, so what the model knows of the data can be audited against it: every data-derived number in the
 * artifact is one of these values or a function of them and of the schema.
 */

const Epsilon = Schema.Number.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
const Delta = Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 })))
const Counts = Schema.Array(Schema.Number)

/** A count with two-sided geometric noise: the row count. */
export const CountRelease = Schema.TaggedStruct("count", {
  statistic: Schema.String,
  epsilon: Epsilon,
  delta: Delta,
  count: Schema.Number
})

/** A numeric column's values counted in fixed log-scale bins (and its missing values), each count with noise. */
export const HistogramRelease = Schema.TaggedStruct("histogram", {
  column: Schema.String,
  epsilon: Epsilon,
  delta: Delta,
  /** The bins' edges, ascending: bin i is [edges[i], edges[i + 1]). A function of the column's type only. */
  edges: Schema.Array(Schema.Number),
  counts: Counts,
  missing: Schema.Number
})

/** A quantile of a numeric column chosen by the exponential mechanism among fixed candidates. */
export const QuantileRelease = Schema.TaggedStruct("quantile", {
  column: Schema.String,
  epsilon: Epsilon,
  delta: Delta,
  probability: Schema.Number,
  value: Schema.Number
})

/**
 * A categorical column's labels with noisy counts. String labels only appear when their noisy count reached
 * `threshold` (partition selection: a label held by one row appears with probability at most δ); booleans' labels
 * are public and all appear (threshold null). `missing` is the noisy count of missing values.
 */
export const CategoriesRelease = Schema.TaggedStruct("categories", {
  column: Schema.String,
  epsilon: Epsilon,
  delta: Delta,
  labels: Schema.Array(Schema.String),
  counts: Counts,
  missing: Schema.Number,
  threshold: Schema.NullOr(Schema.Number)
})

export const Release = Schema.Union([CountRelease, HistogramRelease, QuantileRelease, CategoriesRelease])
export type Release = typeof Release.Type
export type CountRelease = typeof CountRelease.Type
export type HistogramRelease = typeof HistogramRelease.Type
export type QuantileRelease = typeof QuantileRelease.Type
export type CategoriesRelease = typeof CategoriesRelease.Type

export interface PrivacyLedger {
  readonly record: <R extends Release>(release: R) => R
  readonly releases: () => ReadonlyArray<Release>
  /** Σε of the releases so far (basic composition). */
  readonly epsilon: () => number
  /** Σδ of the releases so far (basic composition). */
  readonly delta: () => number
}

export const privacyLedger = (): PrivacyLedger => {
  const releases: Array<Release> = []
  return {
    record: (release) => {
      releases.push(release)
      return release
    },
    releases: () => releases,
    epsilon: () => releases.reduce((sum, { epsilon }) => sum + epsilon, 0),
    delta: () => releases.reduce((sum, { delta }) => sum + delta, 0)
  }
}
