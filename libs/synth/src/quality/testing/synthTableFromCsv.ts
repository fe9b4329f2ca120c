/**
 * Test and benchmark helper: a CSV file → @synth/tabular's ingestion (the same typing as uploads) → SynthTable.
 * The Arrow → SynthTable step is a minimal stand-in written for the copula and quality tests while the real
 * converter (libs/synth/src/arrow, synthTableFromArrow) is being written; switch to it once it lands.
 */
import { columnTypeOf, ingestTable, readTable } from "@synth/tabular"
import type { Table } from "apache-arrow"
import { Effect, Stream } from "effect"
import { readFileSync } from "node:fs"
import type { SynthColumn, SynthTable } from "../../table.ts"

const asNumber = (value: unknown): number => (typeof value === "bigint" ? Number(value) : value instanceof Date ? value.getTime() : Number(value))

export const synthTableFromArrowForTests = (table: Table): SynthTable => {
  const rowCount = table.numRows
  const columns = table.schema.fields.map((field): SynthColumn => {
    const type = columnTypeOf(field) ?? "string"
    const vector = table.getChild(field.name)!
    if (type === "string" || type === "boolean") {
      const categories: Array<string> = type === "boolean" ? ["false", "true"] : []
      const index = new Map(categories.map((label, i) => [label, i]))
      const codes = new Int32Array(rowCount)
      for (let i = 0; i < rowCount; i++) {
        const value = vector.get(i)
        if (value === null || value === undefined) {
          codes[i] = -1
          continue
        }
        const label = String(value)
        let code = index.get(label)
        if (code === undefined) {
          code = categories.length
          categories.push(label)
          index.set(label, code)
        }
        codes[i] = code
      }
      return { kind: "categorical", name: field.name, type, categories, codes }
    }
    const values = new Float64Array(rowCount)
    const missing = new Uint8Array(rowCount)
    let anyMissing = false
    for (let i = 0; i < rowCount; i++) {
      const value = vector.get(i)
      if (value === null || value === undefined) {
        missing[i] = 1
        anyMissing = true
        continue
      }
      const number = asNumber(value)
      values[i] = type === "date" ? Math.round(number / 86_400_000) : number
    }
    return { kind: "continuous", name: field.name, type, values, missing: anyMissing ? missing : null, sourceFormat: field.metadata.get("synth.sourceFormat") ?? null }
  })
  return { rowCount, columns }
}

export const synthTableFromCsv = (path: string): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(path)))), ({ table }) => readTable(table)).pipe(
      Effect.map(synthTableFromArrowForTests)
    )
  )
