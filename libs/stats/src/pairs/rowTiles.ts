// Pearson r and η take their sums over rows in tiles, in which every pair meets while the tile stays in cache:
// 4096 rows of the 1M-row benchmark's 12 numeric and 7 categorical columns are ~0.5 MiB, within a core's L2.
export const tileRows = 4096

/** Where the ascending rows of `rows`, from position `cursor` on, reach `end`. */
export const positionOf = (rows: Int32Array, cursor: number, end: number): number => {
  while (cursor < rows.length && rows[cursor]! < end) cursor++
  return cursor
}
