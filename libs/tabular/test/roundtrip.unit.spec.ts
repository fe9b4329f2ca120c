import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import fc from "fast-check"
import { tableToCsv } from "../src/render/renderTable.ts"
import type { ColumnType } from "../src/infer/ColumnSchema.ts"
import { ingestTable } from "../src/ingestTable.ts"
import { readTable } from "../src/arrow/readTable.ts"
import { ingestBytes, plainValues } from "./ingestHelpers.ts"
import { encodeText, type Encoding } from "./encodeText.ts"
import { concat } from "./renderHelpers.ts"

/** A value as the normalised table holds it: dates and datetimes as ISO strings. */
type Value = number | boolean | string | null

interface GeneratedColumn {
  readonly name: string
  readonly type: ColumnType
  readonly values: ReadonlyArray<Value>
}

const isoDate = fc.date({ min: new Date("1900-01-01"), max: new Date("2100-12-31"), noInvalidDate: true })

/** Already trimmed, not a missing token, and not something that infers as another type. */
const plainText = fc
  .string({ unit: fc.constantFrom("a", "b", "Z", " ", ",", ";", "\t", "|", '"', "\n", "\r\n", "é", "ß", "€", "中", "😀", "'", "x"), minLength: 1, maxLength: 12 })
  .map((text) => `s${text.trim()}`)

const valuesOf: Record<ColumnType, fc.Arbitrary<Value>> = {
  integer: fc.integer({ min: -1_000_000, max: 1_000_000 }),
  float: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }).filter((x) => !Object.is(x, -0)),
  boolean: fc.boolean(),
  date: isoDate.map((date) => date.toISOString().slice(0, 10)),
  datetime: isoDate.map((date) => date.toISOString()),
  string: plainText
}

/** One value per column that settles its type (a non-integer float, an integer beyond 0/1, a date-time). */
const settling: Partial<Record<ColumnType, Value>> = { integer: 2, float: 0.5, datetime: "2020-01-01T00:00:00.000Z" }

const column = (name: string) =>
  fc.constantFrom<ColumnType>("integer", "float", "boolean", "date", "datetime", "string").chain((type) =>
    fc.array(fc.option(valuesOf[type], { freq: 5, nil: null }), { minLength: 1, maxLength: 12 }).map(
      (values): GeneratedColumn => ({ name, type, values: [settling[type] ?? firstValue(type), ...values] })
    )
  )

const firstValue = (type: ColumnType): Value => (type === "boolean" ? true : type === "date" ? "2020-01-02" : "text")

const table = fc.integer({ min: 1, max: 5 }).chain((width) =>
  fc.tuple(...Array.from({ length: width }, (_, index) => column(`col ${index} "${"é".repeat(index)}"`))).map((columns) => {
    const rows = Math.max(...columns.map((generated) => generated.values.length))
    return columns.map((generated) => ({ ...generated, values: pad(generated.values, rows) }))
  })
)

const pad = (values: ReadonlyArray<Value>, length: number): ReadonlyArray<Value> => [
  ...values,
  ...Array.from({ length: length - values.length }, () => null)
]

/** A missing value is an empty field, or `NA` where an empty field would be a blank line (one column), which CSV readers skip. */
const render = (value: Value, type: ColumnType, missing: string): string =>
  value === null ? missing : type === "float" && Number.isInteger(value) ? `${value}.0` : String(value)

const toCsv = (columns: ReadonlyArray<GeneratedColumn>, delimiter: string, lineBreak: string): string => {
  // Every candidate delimiter is quoted, not just the one in use: a file of one column has no delimiter to sniff.
  const field = (text: string) => (/[",;\t|\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text)
  const rows = columns[0]!.values.map((_, row) => columns.map((c) => field(render(c.values[row]!, c.type, columns.length === 1 ? "NA" : ""))).join(delimiter))
  return [columns.map((c) => field(c.name)).join(delimiter), ...rows].join(lineBreak) + lineBreak
}

const toObjects = (columns: ReadonlyArray<GeneratedColumn>) =>
  columns[0]!.values.map((_, row) => Object.fromEntries(columns.map((c) => [c.name, c.values[row]])))

const file = fc.oneof(
  fc.record({
    format: fc.constant("csv" as const),
    delimiter: fc.constantFrom(",", ";", "\t", "|"),
    lineBreak: fc.constantFrom("\n", "\r\n")
  }),
  fc.record({ format: fc.constantFrom("json" as const, "ndjson" as const), delimiter: fc.constant(","), lineBreak: fc.constant("\n") })
)

const encoding = fc.constantFrom<Encoding>("utf-8", "utf-8-bom", "utf-16le", "utf-16be", "windows-1252")

const expectSameTable = (values: Record<string, ReadonlyArray<unknown>>, types: Record<string, string>, columns: ReadonlyArray<GeneratedColumn>) => {
  expect(Object.keys(values)).toEqual(columns.map((c) => c.name))
  for (const generated of columns) {
    expect(types[generated.name]).toBe(generated.type)
    expect(values[generated.name]).toEqual(generated.values)
  }
}

describe("ingestTable round trip", () => {
  it("reads back any typed table written as CSV, JSON or NDJSON in any supported encoding", async () => {
    await fc.assert(
      fc.asyncProperty(table, file, encoding, async (columns, { delimiter, format, lineBreak }, textEncoding) => {
        const text = format === "csv"
          ? toCsv(columns, delimiter, lineBreak)
          : format === "json"
          ? JSON.stringify(toObjects(columns))
          : toObjects(columns).map((row) => JSON.stringify(row)).join("\n")
        const bytes = encodeText(text, textEncoding)
        fc.pre(bytes !== undefined)
        const { summary, values } = await Effect.runPromise(ingestBytes(bytes!, 97))
        expect(summary.format).toBe(format)
        expectSameTable(values, Object.fromEntries(summary.columns.map((c) => [c.name, c.type])), columns)
      }),
      { numRuns: 60 }
    )
  })

  it("gives the same table back after tableToCsv and a second ingest", async () => {
    await fc.assert(
      fc.asyncProperty(table, async (columns) => {
        const first = await Effect.runPromise(ingestBytes(new TextEncoder().encode(toCsv(columns, ",", "\n"))))
        const csv = await Effect.runPromise(
          Effect.flatMap(ingestTable(() => Stream.make(new TextEncoder().encode(toCsv(columns, ",", "\n")))), ({ table }) =>
            Stream.runCollect(tableToCsv(table)))
        )
        const second = await Effect.runPromise(ingestBytes(concat([...csv])))
        expect(second.summary.columns.map((c) => c.type)).toEqual(first.summary.columns.map((c) => c.type))
        expect(second.values).toEqual(first.values)
      }),
      { numRuns: 30 }
    )
  })

  it.effect("reads back a table split across many record batches", () =>
    Effect.gen(function*() {
      const lines = ["n,label"]
      for (let row = 0; row < 70_000; row++) lines.push(`${row},r${row % 7}`)
      const { table } = yield* ingestTable(() => Stream.make(new TextEncoder().encode(lines.join("\n"))))
      const loaded = yield* readTable(table)
      expect(loaded.batches.length).toBeGreaterThan(1)
      expect(plainValues(loaded)["n"]!.at(-1)).toBe(69_999)
    }))
})
