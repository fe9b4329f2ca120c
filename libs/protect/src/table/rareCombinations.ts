import type { CategoricalColumn, Random } from "@synth/synth"

/**
 * Rare-category protection for columns under a fixed-combinations constraint: the combination is what the output
 * publishes, so a combination held by fewer than k rows is rare (as a category is), and each row holding one gets a
 * frequent combination instead, drawn in proportion to their counts. Protecting each column alone would pair a
 * replaced city with the row's real country: a combination no row of the data holds, which the constraint forbids.
 * Every label of a frequent combination is held by at least k rows, so the columns need no protection of their own;
 * their lists keep only labels that remain. With no frequent combination at all, the rows become missing.
 */
export const protectRareCombinations = (
  columns: ReadonlyArray<CategoricalColumn>,
  k: number,
  random: Random
): { readonly columns: ReadonlyArray<CategoricalColumn>; readonly replacedRows: number } => {
  const rowCount = columns[0]?.codes.length ?? 0
  const keyOf = (row: number) => columns.map((column) => column.codes[row]!).join(",")
  const rowsByKey = new Map<string, Array<number>>()
  for (let row = 0; row < rowCount; row++) {
    const key = keyOf(row)
    const rows = rowsByKey.get(key)
    if (rows === undefined) rowsByKey.set(key, [row])
    else rows.push(row)
  }
  const frequent = [...rowsByKey.values()].filter((rows) => rows.length >= k)
  const rare = [...rowsByKey.values()].filter((rows) => rows.length < k)
  if (rare.length === 0) return { columns, replacedRows: 0 }
  const cumulative = new Float64Array(frequent.length)
  let total = 0
  frequent.forEach((rows, index) => (cumulative[index] = total += rows.length))
  const draw = (): number => {
    const target = random.next() * total
    let index = 0
    while (cumulative[index]! <= target) index++
    return frequent[index]![0]!
  }
  // Each replaced row takes the codes of a row holding the drawn combination (-1 everywhere when there is none).
  const sourceRow = Int32Array.from({ length: rowCount }, (_, row) => row)
  let replacedRows = 0
  for (const rows of rare) {
    for (const row of rows) {
      sourceRow[row] = frequent.length === 0 ? -1 : draw()
      replacedRows++
    }
  }
  const protectedColumns = columns.map((column): CategoricalColumn => {
    const copied = Int32Array.from(sourceRow, (from) => (from < 0 ? -1 : column.codes[from]!))
    if (column.type === "boolean") return { ...column, codes: copied }
    const used = [...new Set(copied)].filter((code) => code >= 0).sort((a, b) => a - b)
    const newCode = new Map(used.map((code, index) => [code, index]))
    return { ...column, categories: used.map((code) => column.categories[code]!), codes: copied.map((code) => (code < 0 ? -1 : newCode.get(code)!)) }
  })
  return { columns: protectedColumns, replacedRows }
}
