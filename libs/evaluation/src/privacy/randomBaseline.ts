import type { Random, SynthColumn, SynthTable } from "@synth/synth"

const presentRange = (values: Float64Array, missing: Uint8Array | null) => {
  let min = Infinity, max = -Infinity
  values.forEach((value, i) => {
    if (missing !== null && missing[i] === 1) return
    if (value < min) min = value
    if (value > max) max = value
  })
  return { min, max, present: min <= max }
}

const randomColumn = (column: SynthColumn, rows: number, random: Random): SynthColumn => {
  const missingCount = column.kind === "continuous" ? (column.missing?.reduce((sum, flag) => sum + flag, 0) ?? 0) : column.codes.reduce((sum, code) => sum + (code < 0 ? 1 : 0), 0)
  const missingShare = column.kind === "continuous" ? missingCount / column.values.length : missingCount / column.codes.length
  const isMissing = () => random.next() < missingShare
  if (column.kind === "categorical") {
    const used = [...new Set(column.codes.filter((code) => code >= 0))]
    const codes = new Int32Array(rows)
    for (let i = 0; i < rows; i++) codes[i] = used.length === 0 || isMissing() ? -1 : used[random.integer(used.length)]!
    return { ...column, codes }
  }
  const { min, max, present } = presentRange(column.values, column.missing)
  const values = new Float64Array(rows), missing = new Uint8Array(rows)
  for (let i = 0; i < rows; i++) {
    if (!present || isMissing()) {
      missing[i] = 1
      continue
    }
    values[i] = column.type === "integer" ? min + random.integer(max - min + 1) : min + random.next() * (max - min)
  }
  return { ...column, values, missing }
}

/**
 * SDMetrics' DCRBaselineProtection baseline: `rows` rows drawn column by column, independently and uniformly over
 * what the real column spans — integers in [min, max], floats, dates and datetimes in [min, max) as continuous
 * values, categories uniformly over the distinct present ones — each missing with the real column's missing share.
 */
export const randomBaseline = (real: SynthTable, rows: number, random: Random): SynthTable => ({
  rowCount: rows,
  columns: real.columns.map((column) => randomColumn(column, rows, random.fork()))
})
