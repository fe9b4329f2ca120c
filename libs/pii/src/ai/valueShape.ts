import type { ColumnSample } from "../types.ts"

const classOf = (character: string): string => {
  if (character >= "0" && character <= "9") return "9"
  if (/\p{Lu}/u.test(character)) return "A"
  if (/\p{L}/u.test(character)) return "a"
  if (/\s/u.test(character)) return " "
  return character
}

/**
 * The shape of a value: upper-case letters become `A`, lower-case `a`, digits `9`, whitespace one space, other
 * characters stay; runs longer than three collapse to the class and a length bucket (`a{4-7}`), so `Ada Lovelace`
 * → `Aa{2-3} Aa{4-7}` and `123-45-6789` → `999-99-9{4-7}`. No letter or digit of the value survives: shapes are what
 * the AI layers see, never values.
 */
export const valueShape = (value: string): string => {
  const parts: Array<string> = []
  let current = ""
  let run = 0
  const flush = () => {
    if (run === 0) return
    parts.push(run <= 3 ? current.repeat(run) : `${current}{${run <= 7 ? "4-7" : run <= 15 ? "8-15" : "16+"}}`)
  }
  for (const character of value.trim()) {
    const kind = classOf(character)
    if (kind === current) {
      run++
      continue
    }
    flush()
    current = kind
    run = 1
  }
  flush()
  return parts.join("").slice(0, 64)
}

/** The most common shapes of a column's present values and their shares, most common first. */
export const columnShapeSummary = (column: ColumnSample, max = 8): ReadonlyArray<{ readonly shape: string; readonly share: number }> => {
  const counts = new Map<string, number>()
  let present = 0
  for (const value of column.values) {
    if (value === null || value.trim() === "") continue
    present++
    const shape = valueShape(value)
    counts.set(shape, (counts.get(shape) ?? 0) + 1)
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([shape, count]) => ({ shape, share: count / present }))
}
