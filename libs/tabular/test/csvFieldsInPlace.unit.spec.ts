import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { readAll } from "../src/records/testing.ts"
import { ingestBytes, ingestRecords } from "./ingestHelpers.ts"

/**
 * CSV is read in place (FieldBatch): numbers, dates, booleans and text are converted where they lie in the decoded
 * text, and only fields that may need cleaning become strings. The same file served as rows of strings (the way
 * JSON and the stand-ins in tests are read) must give the same summary and the same table.
 */

/** Cells off the plain path: padding, missing tokens, forms the fast readers leave to the general ones, quotes. */
const oddCell = fc.constantFrom(
  "", " ", "NA", "n/a", "null", "None", "nan", "-", " 7 ", "\u00a07", "7\t", "-5", "+3", "-0.0", ".5", "7.", "1e5",
  "007", "1,234", "1.234", "1.234,5", "0,5", "0.56616131542250511", "9007199254740993.5", "123456789012345678",
  "TRUE", "Yes", "n", "2020-02-30", "1/2/2020 3:04 PM", "2020-01-02 03:04", "2020-01-02T03:04:05+02:00",
  "é", "a\"b", "\"q\"", "x,y", "two\nlines", "two\r\nlines"
)

const columnKind = fc.constantFrom<fc.Arbitrary<string>>(
  fc.integer({ min: -2_000_000, max: 2_000_000 }).map(String),
  fc.integer({ min: -1e15, max: 1e15 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 })).map(([units, cents]) =>
    `${units}.${String(cents).padStart(2, "0")}`
  ),
  fc.constantFrom("true", "false"),
  fc.constantFrom("yes", "no", "y", "n", "1", "0"),
  fc.constantFrom("1.234", "12.345.678", "0,5", "-1.234,5", "7", "+3,25"),
  fc.date({ min: new Date("1900-01-01"), max: new Date("2100-12-31"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  fc.date({ min: new Date("1900-01-01"), max: new Date("2100-12-31"), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1900, max: 2100 }), fc.boolean())
    .map(([month, day, year, padded]) => `${padded ? String(month).padStart(2, "0") : month}/${day}/${year}`),
  fc.string({ unit: fc.constantFrom("a", "b", " ", ",", "\"", "é", "€", "😀", "\n"), minLength: 1, maxLength: 8 })
)

/** Mostly cells of one kind, so that typed columns come out, with odd cells now and then. */
const column = columnKind.map((kind) => fc.oneof({ weight: 6, arbitrary: kind }, { weight: 1, arbitrary: oddCell }))

const table = fc.integer({ min: 1, max: 4 }).chain((width) =>
  fc.tuple(...Array.from({ length: width }, () => column)).chain((kinds) =>
    fc.array(fc.tuple(...kinds), { minLength: 1, maxLength: 40 })
  )
)

/** Quoted when it must be, and at random otherwise (a quoted field is read in place too). */
const csvField = (text: string, quote: boolean): string =>
  quote || /[",\r\n]/.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text

const csvText = (rows: ReadonlyArray<ReadonlyArray<string>>, quotes: ReadonlyArray<boolean>, lineBreak: string): string => {
  const header = rows[0]!.map((_, column) => `c${column}`).join(",")
  const lines = rows.map((row, index) => row.map((cell, column) => csvField(cell, quotes[(index + column) % quotes.length]!)).join(","))
  return [header, ...lines].join(lineBreak) + lineBreak
}

describe("CSV fields read in place", () => {
  it("give the same summary and table as the same rows read as strings", async () => {
    await fc.assert(
      fc.asyncProperty(
        table,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
        fc.constantFrom("\n", "\r\n"),
        fc.constantFrom(1, 7, 64, 64 * 1024),
        async (rows, quotes, lineBreak, chunkSize) => {
          const bytes = new TextEncoder().encode(csvText(rows, quotes, lineBreak))
          const strings = await readAll(bytes, chunkSize)
          const inPlace = await Effect.runPromise(Effect.result(ingestBytes(bytes, chunkSize)))
          const asStrings = await Effect.runPromise(Effect.result(ingestRecords(strings.columns, strings.rows)))
          expect(inPlace._tag).toBe(asStrings._tag)
          if (inPlace._tag === "Failure" || asStrings._tag === "Failure") {
            expect(inPlace).toEqual(asStrings)
            return
          }
          const [fields, cells] = [inPlace.success, asStrings.success]
          expect(fields.summary.columns).toEqual(cells.summary.columns)
          expect([fields.summary.rowCount, fields.summary.cleaning]).toEqual([cells.summary.rowCount, cells.summary.cleaning])
          expect(fields.values).toEqual(cells.values)
        }
      ),
      { numRuns: 300 }
    )
  })
})
