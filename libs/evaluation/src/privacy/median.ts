/** pandas' median: the middle value, or the mean of the two middle values; NaN for no values. */
export const median = (values: Float64Array): number => {
  if (values.length === 0) return NaN
  const sorted = Float64Array.from(values).sort()
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
