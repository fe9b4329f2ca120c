import { radixSortFloat64 } from "./radixSort.ts"

// Sorting is most of what a numeric column's profile costs. The LSD radix sort needs six scatter passes over
// doubles with full mantissas and still two or three for small integers; spreading the values over n/16
// equal-width buckets by value takes one counting pass and one scatter, then each bucket, a handful of values on
// average, is insertion-sorted in cache. The 12 columns of the 1M-row benchmark: 602 ms → 380 ms (medians of 9). Buckets that the distribution crowds (a heavy
// tail leaves most values in a few buckets) are bucketed again by their own range; past a few levels, or on ranges
// the arithmetic cannot split (infinities, subnormal widths), the radix sort takes over.

const valuesPerBucket = 16
const insertionSortMaximum = 48
const maximumDepth = 3

const insertionSort = (values: Float64Array, start: number, end: number) => {
  for (let index = start + 1; index < end; index++) {
    const value = values[index]!
    let position = index
    while (position > start && values[position - 1]! > value) {
      values[position] = values[position - 1]!
      position--
    }
    values[position] = value
  }
}

/** Sorts values[start, end) in place; scratch is at least as long as the range. */
const sortRange = (values: Float64Array, scratch: Float64Array, start: number, end: number, depth: number) => {
  const length = end - start
  if (length <= insertionSortMaximum) return insertionSort(values, start, end)
  let min = values[start]!
  let max = min
  for (let index = start + 1; index < end; index++) {
    const value = values[index]!
    if (value < min) min = value
    else if (value > max) max = value
  }
  if (min === max) return
  const buckets = Math.max(2, Math.floor(length / valuesPerBucket))
  const scale = buckets / (max - min)
  if (depth >= maximumDepth || !Number.isFinite(scale) || scale === 0) {
    radixSortFloat64(values.subarray(start, end))
    return
  }
  // floor((x − min) · scale) never decreases as x grows (each step rounds monotonically), so buckets keep order.
  const offsets = new Int32Array(buckets + 1)
  for (let index = start; index < end; index++) {
    offsets[Math.min(Math.floor((values[index]! - min) * scale), buckets - 1) + 1]!++
  }
  for (let bucket = 1; bucket <= buckets; bucket++) offsets[bucket]! += offsets[bucket - 1]!
  const ends = offsets.slice(1)
  for (let index = start; index < end; index++) {
    const value = values[index]!
    scratch[offsets[Math.min(Math.floor((value - min) * scale), buckets - 1)]!++] = value
  }
  values.set(scratch.subarray(0, length), start)
  let bucketStart = start
  for (let bucket = 0; bucket < buckets; bucket++) {
    const bucketEnd = start + ends[bucket]!
    if (bucketEnd - bucketStart > 1) sortRange(values, scratch, bucketStart, bucketEnd, depth + 1)
    bucketStart = bucketEnd
  }
}

/** -0 and 0 compare equal above; order them as Float64Array.prototype.sort does, -0 first. */
const orderZeros = (values: Float64Array) => {
  let first = 0
  let above = values.length
  while (first < above) {
    const middle = (first + above) >>> 1
    if (values[middle]! < 0) first = middle + 1
    else above = middle
  }
  let negativeZeros = 0
  let last = first
  for (; last < values.length && values[last] === 0; last++) if (Object.is(values[last], -0)) negativeZeros++
  values.fill(-0, first, first + negativeZeros)
  values.fill(0, first + negativeZeros, last)
}

/** Sorts values without NaN ascending, in place, as Float64Array.prototype.sort would (-0 before 0). */
export const sortFloat64 = (values: Float64Array): Float64Array => {
  if (values.length < 2) return values
  sortRange(values, new Float64Array(values.length), 0, values.length, 0)
  orderZeros(values)
  return values
}
