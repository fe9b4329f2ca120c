/**
 * The k most frequent categories, by count descending and then value ascending (UTF-16 code unit order, which is
 * JavaScript's `<` on strings). Selects without sorting every category, so a column of a million distinct values
 * costs one numeric sort and a pass, not a million string comparisons.
 */
export const topCategories = (
  counts: Float64Array,
  categories: ReadonlyArray<string>,
  k: number
): ReadonlyArray<number> => {
  const used: Array<number> = []
  for (let code = 0; code < counts.length; code++) if (counts[code]! > 0) used.push(code)
  const byRank = (a: number, b: number) =>
    counts[b]! - counts[a]! || (categories[a]! < categories[b]! ? -1 : categories[a]! > categories[b]! ? 1 : 0)
  if (used.length <= Math.max(k, 1) * 64) return used.sort(byRank).slice(0, k)
  if (k <= 0) return []
  const sortedCounts = Float64Array.from(used, (code) => counts[code]!).sort()
  const threshold = sortedCounts[sortedCounts.length - k]!
  const above = used.filter((code) => counts[code]! > threshold)
  // Ties at the threshold: keep the smallest values in a short sorted list instead of sorting them all.
  const needed = k - above.length
  const tied: Array<number> = []
  for (const code of used) {
    if (counts[code] !== threshold) continue
    const value = categories[code]!
    if (tied.length === needed && value >= categories[tied[needed - 1]!]!) continue
    let position = tied.length
    while (position > 0 && categories[tied[position - 1]!]! > value) position--
    tied.splice(position, 0, code)
    if (tied.length > needed) tied.pop()
  }
  return [...above.sort(byRank), ...tied]
}
