import {
  Bool,
  DateDay,
  type DataType,
  Field,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableFromIPC,
  tableToIPC,
  TimestampMillisecond,
  Utf8,
  vectorFromArray
} from "apache-arrow"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { ProfileInput } from "../ProfileInput.ts"
import { profileInputFromArrow } from "./profileInputFromArrow.ts"

const day = 86_400_000

// The fields @synth/tabular writes: storage type plus the logical type in `synth.type`.
const fields = [
  new Field("count", new Int32(), true, new Map([["synth.type", "integer"]])),
  new Field("big", new Float64(), true, new Map([["synth.type", "integer"]])),
  new Field("price", new Float64(), true, new Map([["synth.type", "float"]])),
  new Field("active", new Bool(), true, new Map([["synth.type", "boolean"]])),
  new Field("born", new DateDay(), true, new Map([["synth.type", "date"]])),
  new Field("seen", new TimestampMillisecond(), true, new Map([["synth.type", "datetime"]])),
  new Field("city", new Utf8(), true, new Map([["synth.type", "string"]]))
]

const batch = (columns: ReadonlyArray<ReadonlyArray<unknown>>) => {
  const schema = new Schema(fields)
  const children = columns.map((values, index) => vectorFromArray(values as Array<unknown>, fields[index]!.type as DataType).data[0]!)
  return new RecordBatch(schema, makeData({ type: new Struct(fields), length: columns[0]!.length, children }))
}

const first = batch([
  [1, null, 3],
  [1e12, 2, null],
  [1.5, null, 2.5],
  [true, null, false],
  [10 * day, null, 12 * day],
  [1500, 0, null],
  ["Oslo", null, "Bergen"]
])
const second = batch([[4], [5], [0.25], [true], [13 * day], [7], ["Oslo"]])

/** Through IPC bytes, as the profiling service will read the normalised table. */
const roundTrip = (table: Table) => tableFromIPC(tableToIPC(table, "file"))

const read = (table: Table): ProfileInput => Result.getOrThrow(profileInputFromArrow(table))

describe("profileInputFromArrow", () => {
  it("reads every logical type across record batches, nulls as NaN or -1", () => {
    const input = read(roundTrip(new Table(new Schema(fields), [first, second])))
    expect(input.rowCount).toBe(4)
    const [count, big, price, active, born, seen, city] = input.columns
    expect(count).toEqual({ name: "count", type: "integer", values: Float64Array.from([1, NaN, 3, 4]) })
    expect(big).toEqual({ name: "big", type: "integer", values: Float64Array.from([1e12, 2, NaN, 5]) })
    expect(price).toEqual({ name: "price", type: "float", values: Float64Array.from([1.5, NaN, 2.5, 0.25]) })
    expect(active).toEqual({ name: "active", type: "boolean", codes: Int32Array.from([1, -1, 0, 1]), categories: ["false", "true"] })
    expect(born).toEqual({ name: "born", type: "date", values: Float64Array.from([10 * day, NaN, 12 * day, 13 * day]) })
    expect(seen).toEqual({ name: "seen", type: "datetime", values: Float64Array.from([1500, 0, NaN, 7]) })
    expect(city).toEqual({ name: "city", type: "string", codes: Int32Array.from([0, -1, 1, 0]), categories: ["Oslo", "Bergen"] })
  })

  it("reads sliced tables from the slice's first row", () => {
    const input = read(new Table(new Schema(fields), [first, second]).slice(1, 3))
    expect(input.rowCount).toBe(2)
    expect(input.columns[0]).toMatchObject({ values: Float64Array.from([NaN, 3]) })
    expect(input.columns[3]).toMatchObject({ codes: Int32Array.from([-1, 0]) })
  })

  it("falls back to the storage type without synth.type", () => {
    const plain = new Table({ n: vectorFromArray([1, 2], new Int32()), s: vectorFromArray(["a", "b"], new Utf8()) })
    expect(read(plain).columns.map((column) => column.type)).toEqual(["integer", "string"])
  })

  it("fails with a tagged error on storage that does not fit the logical type", () => {
    const wrong = new Field("x", new Utf8(), true, new Map([["synth.type", "float"]]))
    const children = [vectorFromArray(["1"], new Utf8()).data[0]!]
    const table = new Table(new Schema([wrong]), [
      new RecordBatch(new Schema([wrong]), makeData({ type: new Struct([wrong]), length: 1, children }))
    ])
    const result = profileInputFromArrow(table)
    expect(Result.isFailure(result) && result.failure._tag === "UnsupportedArrowField" && result.failure.field).toBe("x")
  })
})
