// Black-box end-to-end tests of the dataset endpoints against the standalone runtime started with Node: uploads of
// the four real datasets and of files in other encodings, delimiters, date orders and JSON shapes; downloads; every
// upload error; paging; isolation between users; hostile file names; deletion. Two servers: one with the default
// upload limit, one with MAX_FILE_SIZE=1 MiB for the limit tests.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  type ColumnType,
  type DatasetDetail,
  download,
  expectProblem,
  getDataset,
  type ListItem,
  missingOf,
  parseCsv,
  typesOf,
  upload,
  uploaded,
  uploadParts
} from "../support/datasets.ts"
import { bearer, http, type RawResponse } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { tableFromIPC } from "apache-arrow"
import { readParquet } from "parquet-wasm"
import { createAccount, formsFixture, realDataset, slowUpload } from "../support/upload.ts"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const isoUtcPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const smallLimit = 1024 * 1024

let server: RunningServer
let limited: RunningServer
let baseUrl: string

beforeAll(async () => {
  const common = { AUTH_RATE_LIMIT_PER_MINUTE: "10000", RATE_LIMIT_PER_MINUTE: "10000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" }
  const [main, small] = await Promise.allSettled([
    startServer({ runtime: "node", env: common, readyTimeoutMs: 150_000 }),
    startServer({ runtime: "node", env: { ...common, MAX_FILE_SIZE: String(smallLimit) }, readyTimeoutMs: 150_000 })
  ])
  if (main.status === "fulfilled") server = main.value
  if (small.status === "fulfilled") limited = small.value
  for (const outcome of [main, small]) if (outcome.status === "rejected") throw outcome.reason
  baseUrl = server.baseUrl
}, 200_000)

afterAll(async () => {
  await Promise.all([server?.stop("SIGTERM", 60_000), limited?.stop("SIGTERM", 60_000)])
}, 90_000)

const list = (token: string, query = "", url = baseUrl) => http(`${url}/datasets/${query}`, { headers: bearer(token) })

const listed = async (token: string, url = baseUrl): Promise<ReadonlyArray<ListItem>> => {
  const response = await list(token, "?limit=500", url)
  expect(response.status, response.text).toBe(200)
  return response.json as ReadonlyArray<ListItem>
}

/** Uploads and reads the details back. */
const uploadAndDescribe = async (token: string, filename: string, content: string | Buffer) => {
  const result = uploaded(await upload(baseUrl, token, filename, content))
  return { result, detail: await getDataset(baseUrl, token, result.id) }
}

/** The CSV download's rows as objects by header, after checking the response (`query`: `?values=normalised`...). */
const downloadedRows = async (token: string, id: string, query = "", delimiter = ",") => {
  const response = await download(baseUrl, token, id, query)
  expect(response.status, response.text.slice(0, 500)).toBe(200)
  expect(response.header("content-type")).toMatch(/^text\/csv;\s*charset=utf-8$/i)
  const [header, ...rows] = parseCsv(response.text, delimiter)
  return { header: header!, rows, records: rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]]))) }
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")])

// ---------------------------------------------------------------------------------------------------------------

describe("upload of the real datasets", () => {
  let token: string
  beforeAll(async () => {
    token = await createAccount(baseUrl, "real")
  })

  interface Expected {
    readonly rows: number
    readonly types: Readonly<Record<string, ColumnType>>
    readonly missing: Readonly<Record<string, number>>
  }

  const expected: Record<"diamonds" | "telco_churn" | "credit_data" | "penguins", Expected> = {
    diamonds: {
      rows: 53_940,
      types: {
        carat: "float", cut: "string", color: "string", clarity: "string", depth: "float", table: "float",
        price: "integer", x: "float", y: "float", z: "float"
      },
      missing: {}
    },
    telco_churn: {
      rows: 7_043,
      types: {
        churn: "boolean", female: "boolean", senior_citizen: "boolean", partner: "boolean", dependents: "boolean",
        tenure: "integer", phone_service: "boolean", multiple_lines: "string", internet_service: "string",
        online_security: "string", online_backup: "string", device_protection: "string",
        tech_support: "string", streaming_tv: "string", streaming_movies: "string",
        contract: "string", paperless_billing: "boolean", payment_method: "string", monthly_charges: "float",
        total_charges: "float"
      },
      missing: { total_charges: 11, tenure: 0, churn: 0 }
    },
    credit_data: {
      rows: 4_454,
      types: {
        Status: "string", Seniority: "integer", Home: "string", Time: "integer", Age: "integer", Marital: "string",
        Records: "boolean", Job: "string", Expenses: "integer", Income: "integer", Assets: "integer", Debt: "integer",
        Amount: "integer", Price: "integer"
      },
      missing: { Home: 6, Marital: 1, Job: 2, Income: 381, Assets: 47, Debt: 18, Status: 0, Price: 0 }
    },
    penguins: {
      rows: 344,
      types: {
        species: "string", island: "string", bill_length_mm: "float", bill_depth_mm: "float",
        flipper_length_mm: "integer", body_mass_g: "integer", sex: "string"
      },
      missing: { bill_length_mm: 2, bill_depth_mm: 2, flipper_length_mm: 2, body_mass_g: 2, sex: 11, species: 0 }
    }
  }

  for (const [name, want] of Object.entries(expected) as Array<[keyof typeof expected, Expected]>) {
    it(`${name}.csv: ${want.rows} rows × ${Object.keys(want.types).length} columns, each column's type and missing count`, async () => {
      const content = realDataset(name)
      const response = await upload(baseUrl, token, `${name}.csv`, content)
      const result = uploaded(response)
      expect(Object.keys(result).sort()).toEqual(
        ["column_count", "file_size", "filename", "id", "row_count", "status", "upload_timestamp"]
      )
      expect(result).toMatchObject({
        filename: `${name}.csv`,
        row_count: want.rows,
        column_count: Object.keys(want.types).length,
        file_size: content.length,
        status: "uploaded"
      })
      expect(result.id).toMatch(uuidPattern)
      expect(result.upload_timestamp).toMatch(isoUtcPattern)
      expect(response.header("location")).toBe(`/datasets/${result.id}`)

      const detail = await getDataset(baseUrl, token, result.id)
      expect(detail.columns.map((column) => column.name)).toEqual(Object.keys(want.types))
      expect(typesOf(detail)).toEqual(want.types)
      expect(missingOf(detail)).toMatchObject(want.missing)
      expect(detail).toMatchObject({
        id: result.id,
        name: `${name}.csv`,
        filename: `${name}.csv`,
        row_count: want.rows,
        column_count: Object.keys(want.types).length,
        file_size: content.length,
        status: "uploaded",
        format: "csv",
        encoding: "utf-8",
        delimiter: ",",
        source: "uploaded",
        generator_id: null,
        has_profile: false,
        has_pii_analysis: false
      })
      expect(detail.upload_timestamp).toBe(result.upload_timestamp)
      expect(detail.created_at).toMatch(isoUtcPattern)
    }, 120_000)
  }

  it("penguins.csv downloads as uploaded: same header and rows, missing values empty", async () => {
    const result = uploaded(await upload(baseUrl, token, "penguins.csv", realDataset("penguins")))
    const { header, records, rows } = await downloadedRows(token, result.id)
    expect(header).toEqual(Object.keys(expected.penguins.types))
    expect(rows).toHaveLength(344)
    expect(records[0]).toEqual({
      species: "Adelie", island: "Torgersen", bill_length_mm: "39.1", bill_depth_mm: "18.7",
      flipper_length_mm: "181", body_mass_g: "3750", sex: "male"
    })
    expect(records.filter((record) => record.sex === "")).toHaveLength(11)
    expect(records.filter((record) => record.body_mass_g === "")).toHaveLength(2)
  }, 120_000)

  it("diamonds.csv downloads with every row and the exact cells it had; normalised, numbers keep their values", async () => {
    const result = uploaded(await upload(baseUrl, token, "diamonds.csv", realDataset("diamonds")))
    const { header, rows } = await downloadedRows(token, result.id)
    expect(header).toEqual(Object.keys(expected.diamonds.types))
    const [, ...sourceRows] = parseCsv(realDataset("diamonds").toString("utf8"))
    expect(rows).toHaveLength(sourceRows.length)
    const differing = rows.flatMap((row, index) =>
      JSON.stringify(row) === JSON.stringify(sourceRows[index]) ? [] : [{ index, row, source: sourceRows[index] }]
    )
    expect(differing.slice(0, 5)).toEqual([])
    const normalised = await downloadedRows(token, result.id, "?values=normalised")
    const numeric = header.map((name) => expected.diamonds.types[name] !== "string")
    const comparable = (row: ReadonlyArray<string>) => row.map((value, index) => (numeric[index] ? Number(value) : value))
    const differingValues = normalised.rows.flatMap((row, index) =>
      JSON.stringify(comparable(row)) === JSON.stringify(comparable(sourceRows[index]!)) ? [] : [{ index, row }]
    )
    expect(differingValues.slice(0, 5)).toEqual([])
  }, 120_000)

  it("telco_churn.csv downloads every cell as the file wrote it (No/Yes, 0/1); ?values=normalised writes true/false", async () => {
    const content = realDataset("telco_churn")
    const result = uploaded(await upload(baseUrl, token, "telco_churn.csv", content))
    const { header, records, rows } = await downloadedRows(token, result.id)
    const [sourceHeader, ...sourceRows] = parseCsv(content.toString("utf8"))
    expect(header).toEqual(sourceHeader)
    expect(rows).toHaveLength(7_043)
    // The file's cells, apart from the documented cleaning (trimmed; NA and the like written as empty): none here.
    const differing = rows.flatMap((row, index) =>
      JSON.stringify(row) === JSON.stringify(sourceRows[index]!.map((cell) => cell.trim())) ? [] : [{ index, row }]
    )
    expect(differing.slice(0, 5)).toEqual([])
    expect(records[0]).toMatchObject({ churn: "No", female: "1", senior_citizen: "0", tenure: "1" })
    const normalised = await downloadedRows(token, result.id, "?values=normalised")
    expect(normalised.records[0]).toMatchObject({ churn: "false", female: "true", senior_citizen: "false", tenure: "1" })
    expect(normalised.records[2]).toMatchObject({ churn: "true" })
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------------------------

describe("encodings, delimiters, dates and JSON", () => {
  let token: string
  beforeAll(async () => {
    token = await createAccount(baseUrl, "formats")
  })

  it("UTF-16 LE with a BOM is decoded (encoding utf-16le) and downloads as UTF-8", async () => {
    const { detail } = await uploadAndDescribe(token, "utf16.csv", utf16le("name,city,score\r\nJosé,Zürich,1.5\r\nŁukasz,Kraków,2.25\r\n"))
    expect(detail).toMatchObject({ encoding: "utf-16le", row_count: 2, column_count: 3 })
    expect(typesOf(detail)).toEqual({ name: "string", city: "string", score: "float" })
    const { records } = await downloadedRows(token, detail.id)
    expect(records).toEqual([
      { name: "José", city: "Zürich", score: "1.5" },
      { name: "Łukasz", city: "Kraków", score: "2.25" }
    ])
  })

  it("Windows-1252 text (é as one byte 0xE9) is detected and downloads as UTF-8", async () => {
    const bytes = Buffer.from("name,price\ncaf\u00e9,3\nna\u00efve cr\u00e8me,4\n", "latin1")
    expect(bytes.includes(0xe9)).toBe(true)
    const { detail } = await uploadAndDescribe(token, "cp1252.csv", bytes)
    expect(detail).toMatchObject({ encoding: "windows-1252", row_count: 2 })
    const { records } = await downloadedRows(token, detail.id)
    expect(records.map((record) => record.name)).toEqual(["café", "naïve crème"])
  })

  it("a UTF-8 BOM is reported as utf-8-bom and not part of the first column's name", async () => {
    const { detail } = await uploadAndDescribe(token, "bom.csv", Buffer.from("\ufeffid,label\n1,a\n2,b\n", "utf8"))
    expect(detail.encoding).toBe("utf-8-bom")
    expect(typesOf(detail)).toEqual({ id: "integer", label: "string" })
  })

  it("a ;-delimited file with decimal commas: delimiter ';', downloads as written; normalised, floats with a dot and commas", async () => {
    const { detail } = await uploadAndDescribe(token, "semicolon.csv", "item;price;weight\napple;3,50;0,25\npear;12,75;1,5\nplum;0,99;2\n")
    expect(detail).toMatchObject({ delimiter: ";", row_count: 3, column_count: 3 })
    expect(typesOf(detail)).toEqual({ item: "string", price: "float", weight: "float" })
    const { records } = await downloadedRows(token, detail.id, "", ";")
    expect(records.map((record) => record.price)).toEqual(["3,50", "12,75", "0,99"])
    expect(records.map((record) => record.weight)).toEqual(["0,25", "1,5", "2"])
    const normalised = await downloadedRows(token, detail.id, "?values=normalised")
    expect(normalised.records.map((record) => Number(record.price))).toEqual([3.5, 12.75, 0.99])
    expect(normalised.records.map((record) => Number(record.weight))).toEqual([0.25, 1.5, 2])
  })

  it("US and European dates are resolved per column and download as written; normalised, as ISO dates", async () => {
    // 02/01/2024 is 1 February in the US column (12/31 fixes month-first) and 2 January in the European one.
    const csv = "us,eu,iso,stamp\n" +
      "12/31/2023,31/12/2023,2023-12-31,2023-12-31T23:59:00Z\n" +
      "01/15/2024,15/01/2024,2024-01-15,2024-01-15T08:30:00Z\n" +
      "02/01/2024,02/01/2024,2024-01-02,2024-01-02T00:00:00Z\n"
    const { detail } = await uploadAndDescribe(token, "dates.csv", csv)
    expect(typesOf(detail)).toEqual({ us: "date", eu: "date", iso: "date", stamp: "datetime" })
    const asWritten = await downloadedRows(token, detail.id)
    expect(asWritten.rows).toEqual(parseCsv(csv).slice(1))
    const { records } = await downloadedRows(token, detail.id, "?values=normalised")
    expect(records.map((record) => record.us)).toEqual(["2023-12-31", "2024-01-15", "2024-02-01"])
    expect(records.map((record) => record.eu)).toEqual(["2023-12-31", "2024-01-15", "2024-01-02"])
    expect(records.map((record) => record.iso)).toEqual(["2023-12-31", "2024-01-15", "2024-01-02"])
    for (const record of records) expect(new Date(record.stamp!).toISOString().slice(0, 16)).toBe(record.stamp!.slice(0, 16))
  })

  it("cells are trimmed, missing tokens become missing, booleans come from yes/no, true/false and 0/1", async () => {
    const csv = "name , yesno,truefalse,bit,amount,count\n" +
      "  Ada  ,yes,true,1,\"1,234,567\",NA\n" +
      "Grace,no,FALSE,0,\"12,345\",N/A\n" +
      " Linus,Yes,True,1,999,null\n" +
      "Barbara ,NO,false,0,-,7\n" +
      "Ken,,true,1,None,NaN\n"
    const { detail } = await uploadAndDescribe(token, "cleaning.csv", csv)
    expect(typesOf(detail)).toEqual({
      name: "string", yesno: "boolean", truefalse: "boolean", bit: "boolean", amount: "integer", count: "integer"
    })
    expect(missingOf(detail)).toEqual({ name: 0, yesno: 1, truefalse: 0, bit: 0, amount: 2, count: 4 })
    expect(detail.cleaning.trimmed_cells).toBeGreaterThanOrEqual(3)
    // NA, N/A, null, -, None, NaN (an empty field is simply empty).
    expect(detail.cleaning.missing_tokens).toBeGreaterThanOrEqual(6)
    // As written, a column that mixes cases comes back in its most frequent spelling of each value (the first on a tie).
    const asWritten = (await downloadedRows(token, detail.id)).records
    expect(asWritten.map((record) => record.yesno)).toEqual(["yes", "no", "yes", "no", ""])
    expect(asWritten.map((record) => record.truefalse)).toEqual(["true", "FALSE", "true", "FALSE", "true"])
    expect(asWritten.map((record) => record.bit)).toEqual(["1", "0", "1", "0", "1"])
    expect(asWritten.map((record) => record.amount)).toEqual(["1,234,567", "12,345", "999", "", ""])
    const { records } = await downloadedRows(token, detail.id, "?values=normalised")
    expect(records.map((record) => record.name)).toEqual(["Ada", "Grace", "Linus", "Barbara", "Ken"])
    expect(records.map((record) => record.yesno)).toEqual(["true", "false", "true", "false", ""])
    expect(records.map((record) => record.bit)).toEqual(["true", "false", "true", "false", "true"])
    expect(records.map((record) => record.amount)).toEqual(["1234567", "12345", "999", "", ""])
    expect(records.map((record) => record.count)).toEqual(["", "", "", "7", ""])
  })

  it("a JSON array of objects: nested objects flattened to dotted names, arrays kept as JSON text", async () => {
    const json = JSON.stringify([
      { id: 1, user: { name: "Ada", address: { city: "London" } }, tags: ["a", "b"], active: true, score: 1.5 },
      { id: 2, user: { name: "Grace", address: { city: "New York" } }, tags: [], active: false, score: 2 },
      { id: 3, user: { name: "Linus", address: { city: null } }, tags: ["c"], active: true, score: null }
    ])
    const { detail } = await uploadAndDescribe(token, "people.json", json)
    expect(detail).toMatchObject({ format: "json", row_count: 3 })
    expect(typesOf(detail)).toMatchObject({
      id: "integer", "user.name": "string", "user.address.city": "string", tags: "string", active: "boolean", score: "float"
    })
    expect(missingOf(detail)).toMatchObject({ "user.address.city": 1, score: 1 })
    const { records } = await downloadedRows(token, detail.id)
    expect(records[0]).toMatchObject({ id: "1", "user.name": "Ada", "user.address.city": "London", active: "true" })
    expect(JSON.parse(records[0]!.tags!)).toEqual(["a", "b"])
    // As JSON it comes back as it went in: nested objects rebuilt, arrays as arrays, null for missing.
    const asJson = await download(baseUrl, token, detail.id, "?format=json")
    expect(asJson.status, asJson.text.slice(0, 300)).toBe(200)
    expect(asJson.json).toEqual(JSON.parse(json))
  })

  it("newline-delimited JSON is read line by line (format ndjson)", async () => {
    const ndjson = [
      { sku: "A-1", qty: 3, price: 9.99, shipped: "2024-03-05" },
      { sku: "B-2", qty: 1, price: 15, shipped: "2024-03-06" },
      { sku: "C-3", qty: 12, price: 0.5, shipped: null }
    ].map((record) => JSON.stringify(record)).join("\n") + "\n"
    const { detail } = await uploadAndDescribe(token, "orders.ndjson", ndjson)
    expect(detail).toMatchObject({ format: "ndjson", row_count: 3, column_count: 4 })
    expect(typesOf(detail)).toEqual({ sku: "string", qty: "integer", price: "float", shipped: "date" })
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe("download formats and the source form", () => {
  let token: string
  beforeAll(async () => {
    token = await createAccount(baseUrl, "download-formats")
  })

  /** An upload's documented cleaning: cells trimmed, missing-value tokens (NA, null, -, ...) empty. */
  const missingTokens = new Set(["", "na", "n/a", "null", "nan", "none", "-"])
  const cleaned = (cell: string) => (missingTokens.has(cell.trim().toLowerCase()) ? "" : cell.trim())

  it("the forms fixture comes back cell for cell: boolean spellings, date and datetime layouts, decimal commas, thousands separators, quoted fields, empty cells, Unicode", async () => {
    const content = formsFixture("forms.csv")
    const { id } = uploaded(await upload(baseUrl, token, "forms.csv", content))
    const { header, rows } = await downloadedRows(token, id)
    const [sourceHeader, ...sourceRows] = parseCsv(content.toString("utf8"))
    expect(header).toEqual(sourceHeader)
    expect(rows).toEqual(sourceRows.map((row) => row.map(cleaned)))
    // Something was cleaned, so the comparison above is not of identical texts by accident.
    expect(sourceRows.flat().filter((cell) => cleaned(cell) !== cell).length).toBeGreaterThanOrEqual(3)
  }, 120_000)

  it("?format=json, ndjson and parquet: their content types and extensions, JSON values, nesting, Parquet's logical types", async () => {
    const { id } = uploaded(await upload(baseUrl, token, "forms.csv", formsFixture("forms.csv")))
    const asJson = await download(baseUrl, token, id, "?format=json")
    expect(asJson.status, asJson.text.slice(0, 300)).toBe(200)
    expect(asJson.header("content-type")).toMatch(/^application\/json\b/)
    expect(asJson.header("content-disposition")).toContain('filename="forms.json"')
    const rows = asJson.json as Array<Record<string, unknown>>
    expect(rows).toHaveLength(5)
    expect(rows[0]).toMatchObject({
      id: 1, yes_no_title: true, one_zero: true, us_date_short: "1/5/2023", eu_dot: "31.12.2023",
      iso_datetime_offset: "2024-01-02T03:04:05+02:00", decimal_comma: 3.14, eu_money: 1234.5, code: "007"
    })
    expect(rows[2]).toMatchObject({ iso_date: null, quoted_text: "line1\nline2" })

    const normalised = await download(baseUrl, token, id, "?format=ndjson&values=normalised")
    expect(normalised.header("content-type")).toMatch(/^application\/x-ndjson\b/)
    expect(normalised.header("content-disposition")).toContain('filename="forms.ndjson"')
    const lines = normalised.text.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toHaveLength(5)
    expect(lines[0]).toMatchObject({ us_date_short: "2023-01-05", iso_datetime_offset: "2024-01-02T01:04:05.000Z", yes_no_title: true })

    const parquet = await download(baseUrl, token, id, "?format=parquet")
    expect(parquet.status).toBe(200)
    expect(parquet.header("content-type")).toBe("application/vnd.apache.parquet")
    expect(parquet.header("content-disposition")).toContain('filename="forms.parquet"')
    expect(parquet.bytes.subarray(0, 4).toString("latin1")).toBe("PAR1")
    // Read back by arrow-rs (parquet-wasm), a reader independent of the writer.
    const table = tableFromIPC(readParquet(new Uint8Array(parquet.bytes)).intoIPCStream())
    expect(table.numRows).toBe(5)
    expect(Object.fromEntries(table.schema.fields.map((field) => [field.name, String(field.type)]))).toMatchObject({
      id: "Int32", yes_no_title: "Bool", iso_date: "Date32<DAY>", iso_datetime_offset: "Timestamp<MILLISECOND, UTC>",
      decimal_comma: "Float64", big_integer: "Int64", code: "Utf8"
    })
    expect(table.getChild("code")!.get(0)).toBe("007")
  }, 120_000)

  it("a nested JSON upload comes back nested in JSON and NDJSON", async () => {
    const content = formsFixture("nested.json")
    const { id } = uploaded(await upload(baseUrl, token, "nested.json", content))
    const original: unknown = JSON.parse(content.toString("utf8"))
    expect((await download(baseUrl, token, id, "?format=json")).json).toEqual(original)
    const ndjson = await download(baseUrl, token, id, "?format=ndjson")
    expect(ndjson.text.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual(original)
  }, 120_000)

  it("an unknown format or values: 422 validation_failed naming the parameter and its allowed values", async () => {
    const { id } = uploaded(await upload(baseUrl, token, "small.csv", "a,b\n1,x\n2,y\n"))
    const cases = [
      ["?format=xlsx", "format", "must be one of csv, json, ndjson, parquet"],
      ["?format=CSV", "format", "must be one of csv, json, ndjson, parquet"],
      ["?values=raw", "values", "must be one of source, normalised"]
    ] as const
    for (const [query, field, message] of cases) {
      const response = await download(baseUrl, token, id, query)
      expect(expectProblem(response, 422, "validation_failed").detail).toContain(message)
      expect((response.json as { readonly errors: unknown }).errors, query).toEqual([{ field, message }])
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe("upload errors", () => {
  let token: string
  beforeAll(async () => {
    token = await createAccount(baseUrl, "errors")
  })

  it("without a token → 401 invalid_token", async () => {
    const response = await http(`${baseUrl}/datasets/upload`, { method: "POST", body: "" })
    expect(response.status, response.text).toBe(401)
    for (const path of ["/datasets/", "/datasets/00000000-0000-7000-8000-000000000000"]) {
      expect((await http(`${baseUrl}${path}`)).status).toBe(401)
    }
  })

  it("UTF-32 with a BOM → 415 unsupported_encoding", async () => {
    const text = "a,b\n1,2\n"
    const utf32 = Buffer.alloc(4 + text.length * 4)
    utf32.set([0xff, 0xfe, 0x00, 0x00], 0)
    for (let index = 0; index < text.length; index++) utf32.writeUInt32LE(text.codePointAt(index)!, 4 + index * 4)
    expectProblem(await upload(baseUrl, token, "utf32.csv", utf32), 415, "unsupported_encoding")
  })

  it("bytes 0x81 0x8D (neither UTF-8 nor Windows-1252) → 415 unsupported_encoding", async () => {
    const bytes = Buffer.concat([Buffer.from("name,city\nab"), Buffer.from([0x81, 0x8d]), Buffer.from(",x\n")])
    expectProblem(await upload(baseUrl, token, "mystery.csv", bytes), 415, "unsupported_encoding")
  })

  const unparseable: ReadonlyArray<readonly [string, string, string | Buffer]> = [
    ["a ragged row", "ragged.csv", "a,b\n1,2\n3,4,5\n6,7\n"],
    ["invalid JSON", "broken.json", "[{\"a\": 1}, {\"a\": "],
    ["a broken quote", "quote.csv", "a,b\n\"1,2\n3,4\n"],
    [
      "a PNG image",
      "image.csv",
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
        Buffer.from([0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89])
      ])
    ]
  ]
  for (const [what, filename, content] of unparseable) {
    it(`${what} → 422 unparseable_file`, async () => {
      expectProblem(await upload(baseUrl, token, filename, content), 422, "unparseable_file")
    })
  }

  it("an empty file and a header without rows → 422 empty_dataset", async () => {
    expectProblem(await upload(baseUrl, token, "empty.csv", ""), 422, "empty_dataset")
    expectProblem(await upload(baseUrl, token, "header.csv", "a,b,c\n"), 422, "empty_dataset")
  })

  it("duplicate or blank column names → 422 invalid_columns", async () => {
    expectProblem(await upload(baseUrl, token, "dupes.csv", "a,b,a\n1,2,3\n"), 422, "invalid_columns")
    expectProblem(await upload(baseUrl, token, "blank.csv", "a,,c\n1,2,3\n"), 422, "invalid_columns")
  })

  it("no part named `file` → missing_file", async () => {
    const response = await uploadParts(baseUrl, token, [{ name: "note", content: "hello" }])
    expectProblem(response, [400, 422], "missing_file")
  })

  it("nothing that failed was stored", async () => {
    expect(await listed(token)).toEqual([])
  })

  it("a 20 MB upload to a 1 MiB limit → 413 file_too_large while the client is still writing; nothing stored", async () => {
    const owner = await createAccount(limited.baseUrl, "too-large")
    const answer = await slowUpload(limited.baseUrl, owner, { totalBytes: 20_000_000, chunkBytes: 64 * 1024, pauseMs: 5 })
    const response: RawResponse = {
      status: answer.status,
      headers: answer.headers,
      text: answer.text,
      bytes: Buffer.from(answer.text, "utf8"),
      json: answer.text === "" ? undefined : JSON.parse(answer.text),
      header: (name) => {
        const value = answer.headers[name.toLowerCase()]
        return Array.isArray(value) ? value.join(", ") : value
      }
    }
    expectProblem(response, 413, "file_too_large")
    expect(response.header("connection")).toMatch(/close/i)
    expect(answer.writtenWhenAnswered, "the answer came only after the whole body").toBeLessThan(answer.totalBytes)
    // The server stopped reading at the limit, give or take its buffers, not at the end of the body.
    expect(answer.writtenWhenAnswered).toBeLessThan(8 * smallLimit)
    expect(await listed(owner, limited.baseUrl)).toEqual([])

    // A file just under the limit is still accepted there.
    const row = "1,2.5,text\n"
    const fits = "a,b,c\n" + row.repeat(Math.floor((smallLimit - 6 - 500) / row.length))
    uploaded(await upload(limited.baseUrl, owner, "fits.csv", fits))
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------------------------

describe("listing, isolation, hostile file names and deletion", () => {
  it("lists only the caller's datasets, newest first, in pages with a Link to the next", async () => {
    const token = await createAccount(baseUrl, "paging")
    const ids: Array<string> = []
    for (let index = 0; index < 5; index++) {
      ids.push(uploaded(await upload(baseUrl, token, `page-${index}.csv`, `n,label\n${index},x\n`)).id)
    }
    const newestFirst = [...ids].reverse()

    const all = await listed(token)
    expect(all.map((item) => item.id)).toEqual(newestFirst)
    expect(all[0]).toMatchObject({ name: "page-4.csv", row_count: 1, column_count: 2, has_profile: false, has_pii_analysis: false })
    expect(all[0]!.created_at).toMatch(isoUtcPattern)

    const seen: Array<string> = []
    let next: string | undefined = `${baseUrl}/datasets/?limit=2`
    let pages = 0
    while (next !== undefined) {
      const page = await http(next, { headers: bearer(token) })
      expect(page.status, page.text).toBe(200)
      const items = page.json as ReadonlyArray<ListItem>
      expect(items.length).toBeLessThanOrEqual(2)
      seen.push(...items.map((item) => item.id))
      const link = /<([^>]+)>;\s*rel="?next"?/.exec(page.header("link") ?? "")
      next = link === null ? undefined : new URL(link[1]!, baseUrl).toString()
      pages += 1
      expect(pages).toBeLessThanOrEqual(5)
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(newestFirst)

    const unpaged = await list(token)
    expect(unpaged.header("link")).toBeUndefined()
  })

  it("another user's dataset is 404 on every endpoint, and does not appear in their list", async () => {
    const owner = await createAccount(baseUrl, "owner")
    const stranger = await createAccount(baseUrl, "stranger")
    const { id } = uploaded(await upload(baseUrl, owner, "private.csv", "secret,value\na,1\n"))

    expect(await listed(stranger)).toEqual([])
    for (const response of [
      await http(`${baseUrl}/datasets/${id}`, { headers: bearer(stranger) }),
      await download(baseUrl, stranger, id),
      await http(`${baseUrl}/datasets/${id}`, { method: "DELETE", headers: bearer(stranger) })
    ]) {
      expectProblem(response, 404, "not_found")
    }
    expect((await getDataset(baseUrl, owner, id)).name).toBe("private.csv")
    // An id that is not a UUID names no dataset: 404 like any other unknown id.
    expectProblem(await http(`${baseUrl}/datasets/not-a-uuid`, { headers: bearer(owner) }), 404, "not_found")
  })

  it("hostile file names lose their directory parts and control characters; the download's Content-Disposition stays safe", async () => {
    const token = await createAccount(baseUrl, "hostile")
    // As sent → as stored (RFC 7578 §4.2: never the directory parts).
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["../../../etc/passwd.csv", "passwd.csv"],
      ["..\\..\\win.ini.csv", "win.ini.csv"],
      ["a/b/c.csv", "c.csv"],
      ["bell\u0007 and tab\t.csv", "bell and tab.csv"],
      ["<script>alert(1)</script>.csv", "script>.csv"],
      ["<img src=x onerror=alert(1)>.csv", "<img src=x onerror=alert(1)>.csv"],
      ["a\"b'c.csv", "a\"b'c.csv"],
      ["x'; DROP TABLE datasets;--.csv", "x'; DROP TABLE datasets;--.csv"],
      ["naïve résumé.csv", "naïve résumé.csv"]
    ]
    for (const [sent, filename] of cases) {
      const result = uploaded(await upload(baseUrl, token, sent, "a,b\n1,2\n"))
      expect(result.filename).toBe(filename)
      const detail: DatasetDetail = await getDataset(baseUrl, token, result.id)
      expect(detail.filename).toBe(filename)
      expect(detail.name).toBe(filename)

      const response = await download(baseUrl, token, result.id)
      expect(response.status, response.text).toBe(200)
      const disposition = response.header("content-disposition") ?? ""
      expect(disposition).toMatch(/^attachment;/)
      expect(disposition).not.toMatch(/[\r\n]/)
      const plain = /filename="([^"]*)"/.exec(disposition)
      expect(plain, disposition).not.toBeNull()
      expect(plain![1]).not.toMatch(/["\\/\r\n]/)
      const extended = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition)
      expect(extended, disposition).not.toBeNull()
      expect(decodeURIComponent(extended![1]!)).not.toMatch(/[\r\n]/)
    }
    expect((await listed(token)).map((item) => item.name).sort()).toEqual(cases.map(([, stored]) => stored).sort())
  })

  it("DELETE answers 204; afterwards the dataset is 404 everywhere and gone from the list", async () => {
    const token = await createAccount(baseUrl, "delete")
    const kept = uploaded(await upload(baseUrl, token, "kept.csv", "a\n1\n"))
    const { id } = uploaded(await upload(baseUrl, token, "doomed.csv", "a\n1\n"))

    const deleted = await http(`${baseUrl}/datasets/${id}`, { method: "DELETE", headers: bearer(token) })
    expect(deleted.status, deleted.text).toBe(204)
    expect(deleted.text).toBe("")

    expectProblem(await http(`${baseUrl}/datasets/${id}`, { headers: bearer(token) }), 404, "not_found")
    expectProblem(await download(baseUrl, token, id), 404, "not_found")
    expectProblem(await http(`${baseUrl}/datasets/${id}`, { method: "DELETE", headers: bearer(token) }), 404, "not_found")
    expect((await listed(token)).map((item) => item.id)).toEqual([kept.id])
  })
})
