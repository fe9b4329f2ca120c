import { describe, expect, it } from "@effect/vitest"
import { DataType, type Table, tableFromIPC } from "apache-arrow"
import fc from "fast-check"
import { readParquet } from "parquet-wasm"
import { cleaned, csvCells, download, fixture, ingestToIpc, text } from "./renderHelpers.ts"

// Upload → download gives back the cells the file held (docs/datasets.md, "Source form"), apart from the documented
// cleaning: cells trimmed, missing-value tokens written as empty cells.

const sampleDatasets = ["diamonds", "telco_churn", "credit_data", "penguins"]

const expectSameCells = async (file: Uint8Array) => {
  const downloaded = await download(await ingestToIpc(file), { format: "csv", values: "source" })
  const [source, back] = await Promise.all([csvCells(file), csvCells(downloaded)])
  expect(back.header).toEqual(source.header)
  expect(back.rows.length).toBe(source.rows.length)
  const differences: Array<string> = []
  source.rows.forEach((row, index) => {
    source.header.forEach((name, column) => {
      const [expected, actual] = [cleaned(row[column]), String(back.rows[index]![column] ?? "")]
      if (expected !== actual && differences.length < 5) differences.push(`row ${index + 1} ${name}: ${expected} → ${actual}`)
    })
  })
  expect(differences).toEqual([])
  return downloaded
}

describe("the source form", () => {
  for (const name of sampleDatasets) {
    it(`gives back every cell of ${name}.csv`, async () => {
      await expectSameCells(fixture(`datasets/${name}.csv`))
    }, 60_000)
  }

  it("gives back every cell of the forms fixture: each boolean spelling, date and datetime layout, number form, quoted and Unicode text", async () => {
    const downloaded = await expectSameCells(fixture("forms/forms.csv"))
    // The cleaning the fixture exercises is the only difference: a padded cell and two missing-value tokens.
    const lines = text(downloaded).split("\r\n")
    expect(lines[4]).toContain(",padded text,Ærø,")
    expect(lines[5]!.endsWith(",naïve café,")).toBe(true)
  })

  it("keeps the file's delimiter, decimal comma and thousands dots", async () => {
    const file = new TextEncoder().encode("Artikel;Preis;Datum;Lager\r\nÄpfel;1.234,50;31.12.2023;Ja\r\nBirnen;0,99;01.02.2024;Nein\r\n")
    const source = await download(await ingestToIpc(file), { format: "csv", values: "source" })
    // `Ja`/`Nein` is no boolean pair the upload knows: text, as written.
    expect(text(source)).toBe(text(file))
    const normalised = await download(await ingestToIpc(file), { format: "csv", values: "normalised" })
    expect(text(normalised)).toBe("Artikel,Preis,Datum,Lager\r\nÄpfel,1234.5,2023-12-31,Ja\r\nBirnen,0.99,2024-02-01,Nein\r\n")
  })

  it("writes the normalised form when asked: ISO dates and datetimes, true/false, plain numbers", async () => {
    const normalised = await csvCells(await download(await ingestToIpc(fixture("forms/forms.csv")), { format: "csv", values: "normalised" }))
    const first = Object.fromEntries(normalised.header.map((name, column) => [name, normalised.rows[0]![column]]))
    expect(first).toMatchObject({
      "unit price (€)": "12.5",
      yes_no_title: "true",
      one_zero: "true",
      us_date_short: "2023-01-05",
      eu_dot: "2023-12-31",
      iso_datetime_offset: "2024-01-02T01:04:05.000Z",
      us_datetime_ampm: "2023-12-31T23:59:00.000Z",
      decimal_comma: "3.14",
      dot_thousands: "1234567",
      plain_float: "57.0"
    })
  })

  it("round-trips floats with fixed decimals, decimal commas and thousands separators", async () => {
    const column = fc.record({
      decimals: fc.integer({ min: 1, max: 4 }),
      comma: fc.boolean(),
      grouped: fc.boolean(),
      values: fc.array(fc.integer({ min: -99_999_999, max: 99_999_999 }), { minLength: 2, maxLength: 20 })
    })
    await fc.assert(
      fc.asyncProperty(column, async ({ comma, decimals, grouped, values }) => {
        // One value of a million or more with a group mark settles the convention, as it would in a real file.
        const texts = [123_456_789_0, ...values].map((scaled) => {
          const plain = (scaled / 10 ** decimals).toFixed(decimals)
          const [integer, fraction] = plain.split(".")
          const marked = grouped ? integer!.replace(/\B(?=(\d{3})+$)/g, comma ? "." : ",") : integer!
          return `${marked}${comma ? "," : "."}${fraction}`
        })
        const file = ["amount", ...texts.map((cell) => `"${cell}"`)].join("\n") + "\n"
        const back = await csvCells(await download(await ingestToIpc(new TextEncoder().encode(file)), { format: "csv", values: "source" }))
        expect(back.rows.map((row) => row[0])).toEqual(texts)
      }),
      { numRuns: 40 }
    )
  })

  it("round-trips dates in any layout, padded or not", async () => {
    const layout = fc.record({ separator: fc.constantFrom("/", ".", "-"), padded: fc.boolean(), dayFirst: fc.boolean() })
    const days = fc.array(fc.integer({ min: -25_000, max: 40_000 }), { minLength: 1, maxLength: 15 })
    await fc.assert(
      fc.asyncProperty(layout, days, async ({ dayFirst, padded, separator }, values) => {
        const write = (day: number) => {
          const date = new Date(day * 86_400_000)
          const [d, m] = [date.getUTCDate(), date.getUTCMonth() + 1].map((part) => (padded ? String(part).padStart(2, "0") : String(part)))
          return [dayFirst ? d : m, dayFirst ? m : d, String(date.getUTCFullYear())].join(separator)
        }
        // Day 13 of a month and day 5 settle the order and the padding.
        const texts = [Date.UTC(2020, 0, 13) / 86_400_000, Date.UTC(2020, 4, 5) / 86_400_000, ...values]
          .filter((day) => new Date(day * 86_400_000).getUTCFullYear() >= 1000)
          .map(write)
        const file = ["when", ...texts].join("\n") + "\n"
        const back = await csvCells(await download(await ingestToIpc(new TextEncoder().encode(file)), { format: "csv", values: "source" }))
        expect(back.rows.map((row) => row[0])).toEqual(texts)
      }),
      { numRuns: 40 }
    )
  })
})

describe("JSON and NDJSON", () => {
  it("give a nested JSON upload back nested, arrays as arrays, a literal dotted key as it was", async () => {
    const file = fixture("forms/nested.json")
    const ipc = await ingestToIpc(file)
    const original: unknown = JSON.parse(text(file))
    expect(JSON.parse(text(await download(ipc, { format: "json", values: "source" })))).toEqual(original)
    const lines = text(await download(ipc, { format: "ndjson", values: "source" })).trimEnd().split("\n")
    expect(lines.map((line) => JSON.parse(line))).toEqual(original)
  })

  it("keep a CSV column named a.b flat", async () => {
    const ipc = await ingestToIpc(new TextEncoder().encode("a.b,a\n12,x\n"))
    expect(JSON.parse(text(await download(ipc, { format: "json", values: "source" })))).toEqual([{ "a.b": 12, a: "x" }])
  })

  it("write booleans, numbers and nulls as JSON values and dates in the chosen form", async () => {
    const ipc = await ingestToIpc(fixture("forms/forms.csv"))
    const rows = JSON.parse(text(await download(ipc, { format: "json", values: "source" }))) as Array<Record<string, unknown>>
    expect(rows).toHaveLength(5)
    expect(rows[0]).toMatchObject({
      id: 1,
      "unit price (€)": 12.5,
      yes_no_title: true,
      one_zero: true,
      us_date_short: "1/5/2023",
      eu_dot: "31.12.2023",
      iso_datetime_offset: "2024-01-02T03:04:05+02:00",
      us_datetime_ampm: "12/31/2023 11:59 PM",
      decimal_comma: 3.14,
      eu_money: 1234.5,
      big_integer: 9007199254740991,
      code: "007"
    })
    expect(rows[2]).toMatchObject({ "unit price (€)": null, yes_no_upper: null, iso_date: null, quoted_text: "line1\nline2" })
    const normalised = JSON.parse(text(await download(ipc, { format: "ndjson", values: "normalised" })).split("\n")[0]!) as Record<string, unknown>
    expect(normalised).toMatchObject({ us_date_short: "2023-01-05", iso_datetime_offset: "2024-01-02T01:04:05.000Z", yes_no_title: true })
  })
})

/** Each column's values, dates and datetimes as ISO text, told apart by their Arrow types (a Parquet file has no synth.type). */
const typedValues = (table: Table): Record<string, ReadonlyArray<unknown>> =>
  Object.fromEntries(table.schema.fields.map((field, column) => {
    const vector = table.getChildAt(column)!
    const values = Array.from({ length: table.numRows }, (_, row) => {
      const value: unknown = vector.get(row)
      if (value === null || value === undefined) return null
      if (DataType.isDate(field.type)) return new Date(Number(value)).toISOString().slice(0, 10)
      if (DataType.isTimestamp(field.type)) return new Date(Number(value)).toISOString()
      return typeof value === "bigint" ? Number(value) : value
    })
    return [field.name, values]
  }))

describe("Parquet", () => {
  /** Read back by arrow-rs (parquet-wasm), a reader independent of the writer. */
  const readBack = (bytes: Uint8Array): Table => tableFromIPC(readParquet(bytes).intoIPCStream())

  it("keeps the logical types and every value, read back by an independent reader", async () => {
    const ipc = await ingestToIpc(fixture("forms/forms.csv"))
    const parquet = await download(ipc, { format: "parquet", values: "source" })
    expect(text(parquet.subarray(0, 4))).toBe("PAR1")
    const back = readBack(parquet)
    const types = Object.fromEntries(back.schema.fields.map((field) => [field.name, String(field.type)]))
    expect(types).toMatchObject({
      id: "Int32",
      "unit price (€)": "Float64",
      yes_no_title: "Bool",
      one_zero: "Bool",
      iso_date: "Date32<DAY>",
      us_date: "Date32<DAY>",
      iso_datetime_offset: "Timestamp<MILLISECOND, UTC>",
      big_integer: "Int64",
      quoted_text: "Utf8",
      code: "Utf8"
    })
    const stored = typedValues(tableFromIPC(ipc))
    expect(Object.keys(stored)).toHaveLength(34)
    expect(typedValues(back)).toEqual(stored)
  })

  it("reads back a table stored in many batches (one row group each)", async () => {
    const diamonds = await ingestToIpc(fixture("datasets/diamonds.csv"))
    const back = readBack(await download(diamonds, { format: "parquet", values: "source" }))
    expect(back.numRows).toBe(53_940)
    expect(Array.from(back.getChild("price")!.toArray() as Int32Array).slice(0, 3)).toEqual([326, 326, 327])
    expect(tableFromIPC(diamonds).batches.length).toBeGreaterThan(1)
  })
})
