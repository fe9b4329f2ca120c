import type { NumericColumnProfile } from "../Profile.ts"
import type { NumericColumn } from "../ProfileInput.ts"
import type { ResolvedProfileOptions } from "../ProfileOptions.ts"
import type { ColumnMoments } from "./centredColumn.ts"
import { histogramBinCount, histogramSorted } from "./histogram.ts"
import { scanOutliers } from "./outliers.ts"
import { distinctSorted, presentSorted } from "./presentSorted.ts"
import { medianSorted, quantileSorted } from "./quantile.ts"
import { countAbove, countBelow } from "./sortedCounts.ts"

export interface NumericSummary {
  readonly profile: NumericColumnProfile
  readonly presentCount: number
  readonly farOutCount: number
}

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null)

/** A consecutive run of distinct integers (1, 2, 3, … or 1001, 1002, …) is how row ids usually look. */
const isIntegerSequence = (column: NumericColumn, sorted: Float64Array, distinct: number): boolean =>
  column.type === "integer" && sorted.length >= 2 && distinct === sorted.length &&
  sorted[sorted.length - 1]! - sorted[0]! === sorted.length - 1

/** Zeros sit together in the sorted values, -0 among them. */
const zerosSorted = (sorted: Float64Array): number => sorted.length - countBelow(sorted, 0) - countAbove(sorted, 0)

/** The column's summary: its moments come from its CentredColumn, the rest from its sorted present values. */
export const numericProfile = (
  column: NumericColumn,
  centred: ColumnMoments,
  options: ResolvedProfileOptions
): NumericSummary => {
  const sorted = presentSorted(column.values, centred.presentCount)
  const presentCount = sorted.length
  const missingCount = column.values.length - presentCount
  const distinct = distinctSorted(sorted)
  const base = {
    name: column.name,
    type: column.type,
    nullable: missingCount > 0,
    missing_count: missingCount,
    unique_count: distinct,
    likely_identifier: isIntegerSequence(column, sorted, distinct)
  }
  if (presentCount === 0) {
    const profile: NumericColumnProfile = {
      ...base,
      min: null, max: null, mean: null, std: null, median: null, quantiles: null,
      skewness: null, kurtosis: null, zeros_count: 0, histogram: null, outliers: null
    }
    return { profile, presentCount, farOutCount: 0 }
  }
  const min = sorted[0]!
  const max = sorted[presentCount - 1]!
  const { mean, std, skewness, kurtosis } = centred.moments
  const quantiles = {
    p01: quantileSorted(sorted, 0.01),
    p05: quantileSorted(sorted, 0.05),
    p25: quantileSorted(sorted, 0.25),
    p50: quantileSorted(sorted, 0.5),
    p75: quantileSorted(sorted, 0.75),
    p95: quantileSorted(sorted, 0.95),
    p99: quantileSorted(sorted, 0.99)
  }
  const bins = histogramBinCount(presentCount, min, max, quantiles.p75 - quantiles.p25, options.maxHistogramBins)
  const { outliers, farOutCount } = scanOutliers(
    column.values, sorted, quantiles.p25, quantiles.p75, options.outlierSampleSize
  )
  const profile: NumericColumnProfile = {
    ...base,
    min,
    max,
    mean: finiteOrNull(mean),
    std: finiteOrNull(std),
    median: medianSorted(sorted),
    quantiles,
    skewness: finiteOrNull(skewness),
    kurtosis: finiteOrNull(kurtosis),
    zeros_count: zerosSorted(sorted),
    histogram: histogramSorted(sorted, bins),
    outliers
  }
  // With IQR 0 the fences collapse onto one value, and the minority values of a binary or near-constant column would
  // all count as far out: they are not errors, so such columns leave accuracy alone.
  return { profile, presentCount, farOutCount: quantiles.p75 > quantiles.p25 ? farOutCount : 0 }
}
