import type { ProfileColumn, ProfileInput } from "../ProfileInput.ts"
import { parseCsv } from "./parseCsv.ts"

// A small CSV reader for tests and benchmarks, so they need neither @synth/tabular nor Python. It reads the shared
// fixtures the way the reference script has pandas read them: "" and "NA" are missing, a column is numeric when
// every other value reads as a number (integer when all are whole), else string.

const missingMarkers = new Set(["", "NA"])
const integerPattern = /^[+-]?\d+$/
const numberPattern = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

const typedColumn = (name: string, cells: ReadonlyArray<string>): ProfileColumn => {
  const present = cells.filter((cell) => !missingMarkers.has(cell))
  if (present.length > 0 && present.every((cell) => numberPattern.test(cell))) {
    const type = present.every((cell) => integerPattern.test(cell)) ? "integer" : "float"
    return { name, type, values: Float64Array.from(cells, (cell) => (missingMarkers.has(cell) ? NaN : Number(cell))) }
  }
  const dictionary = new Map<string, number>()
  const codes = Int32Array.from(cells, (cell) => {
    if (missingMarkers.has(cell)) return -1
    let code = dictionary.get(cell)
    if (code === undefined) dictionary.set(cell, (code = dictionary.size))
    return code
  })
  return { name, type: "string", codes, categories: [...dictionary.keys()] }
}

/** A ProfileInput from CSV text with a header row. */
export const profileInputFromCsv = (text: string): ProfileInput => {
  const [header = [], ...rows] = parseCsv(text)
  const columns = header.map((name, column) => typedColumn(name, rows.map((row) => row[column] ?? "")))
  return { rowCount: rows.length, columns }
}
