import type { SynthColumn } from "@synth/synth"

const DAY_MS = 86_400_000

/**
 * A value as comparable text, or null when missing: labels trimmed, case-folded and NFKC-normalised (so `Ann@X.org`
 * is the real `ann@x.org`), numbers as JavaScript writes them, dates and datetimes as ISO text. The same value in a
 * string column and a number column of the other table meet as text.
 */
export const valueKeys = (column: SynthColumn): ReadonlyArray<string | null> => {
  if (column.kind === "categorical") {
    const labels = column.categories.map((label) => label.normalize("NFKC").trim().toLowerCase())
    return Array.from(column.codes, (code) => (code < 0 ? null : labels[code]!))
  }
  const missing = column.missing
  return Array.from(column.values, (value, row) => {
    if (missing?.[row] === 1 || Number.isNaN(value)) return null
    // Beyond the range Date can write (±8.64e15 ms), the number itself is still a comparable key.
    if (Math.abs(value * (column.type === "date" ? DAY_MS : 1)) > 8.64e15) return String(value)
    if (column.type === "date") return new Date(value * DAY_MS).toISOString().slice(0, 10)
    if (column.type === "datetime") return new Date(value).toISOString()
    return String(value)
  })
}
