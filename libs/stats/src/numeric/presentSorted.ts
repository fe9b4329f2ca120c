import { sortFloat64 } from "./bucketSort.ts"

const countPresent = (values: Float64Array): number => {
  let present = 0
  for (let row = 0; row < values.length; row++) if (values[row] === values[row]) present++
  return present
}

/**
 * The non-missing (non-NaN) values of a column, sorted ascending: quantiles, unique count and histogram share it.
 * A caller that already knows how many values are present saves a pass.
 */
export const presentSorted = (values: Float64Array, presentCount = countPresent(values)): Float64Array => {
  const sorted = new Float64Array(presentCount)
  let next = 0
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    if (value === value) sorted[next++] = value
  }
  return sortFloat64(sorted)
}

/** Distinct values of a sorted array; 0 and -0 count as one value, as in pandas' nunique(). */
export const distinctSorted = (sorted: Float64Array): number => {
  if (sorted.length === 0) return 0
  let distinct = 1
  for (let index = 1; index < sorted.length; index++) if (sorted[index] !== sorted[index - 1]) distinct++
  return distinct
}
