import type { ColumnStatistics } from "./columnStatistics.ts"

/** The three summary figures of a quick evaluation; null when the table has no column of the kind they need. */
export interface StatisticalSimilarity {
  /**
   * Mean KS complement (1 − the two-sample KS statistic, SDMetrics' KSComplement) over the numerical, date and
   * datetime columns. 0 … 1, higher is closer.
   */
  readonly ksTest: number | null
  /**
   * Mean p-value of SDMetrics' CSTest over the string and boolean columns: scipy's chi-square test of the synthetic
   * column's category frequencies against the real column's (relative frequencies, missing as a category). 0 … 1,
   * higher is closer; near 1 unless the frequencies differ a lot, as it does not grow with the number of rows.
   */
  readonly chiSquare: number | null
  /**
   * Mean Wasserstein distance (scipy's wasserstein_distance on the present values) divided by the real column's
   * range (max − min), over the numerical, date and datetime columns. 0 is identical; lower is closer.
   */
  readonly wassersteinDistance: number | null
}

const meanOf = (values: ReadonlyArray<number | null>): number | null => {
  const present = values.filter((value): value is number => value !== null)
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length
}

export const statisticalSimilarity = (columns: ReadonlyArray<ColumnStatistics>): StatisticalSimilarity => {
  const continuous = columns.filter((column) => column.kind === "continuous")
  const categorical = columns.filter((column) => column.kind === "categorical")
  return {
    ksTest: meanOf(continuous.map(({ ksComplement }) => ksComplement)),
    chiSquare: meanOf(categorical.map(({ chiSquarePValue }) => chiSquarePValue)),
    wassersteinDistance: meanOf(continuous.map(({ normalisedWasserstein }) => normalisedWasserstein))
  }
}
