import { Result } from "effect"
import fc from "fast-check"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { synthTableFromCsv } from "../quality/testing/synthTableFromCsv.ts"
import { makeRandom } from "../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthColumn, SynthTable } from "../table.ts"
import { fitTableTransformer, type TableTransformer, tableTransformerFromJSON } from "./tableTransformer.ts"

const dataset = (name: string) =>
  synthTableFromCsv(fileURLToPath(new URL(`../../../../test/fixtures/datasets/${name}.csv`, import.meta.url)))

const allRows = (table: SynthTable) => Int32Array.from({ length: table.rowCount }, (_, i) => i)

/** Encodes every row (in batches of 500, as a model reads them) and decodes the result. */
const roundTrip = (transformer: TableTransformer, table: SynthTable, seed: number): SynthTable => {
  const random = makeRandom(seed)
  const decoder = transformer.decoder(table.rowCount, makeRandom(seed + 1))
  for (let start = 0; start < table.rowCount; start += 500) {
    const rows = allRows(table).subarray(start, Math.min(table.rowCount, start + 500))
    decoder.write(transformer.encode(table, rows, random), rows.length)
  }
  return decoder.finish()
}

const labelAt = (column: CategoricalColumn, row: number) => (column.codes[row]! < 0 ? null : column.categories[column.codes[row]!]!)
const valueAt = (column: ContinuousColumn, row: number) => (column.missing?.[row] === 1 ? null : column.values[row]!)

/** Rows whose decoded value differs from the input's, per column. */
const differences = (input: SynthColumn, output: SynthColumn): number => {
  let differing = 0
  const rows = input.kind === "continuous" ? input.values.length : input.codes.length
  for (let row = 0; row < rows; row++) {
    const same = input.kind === "continuous"
      ? valueAt(input, row) === valueAt(output as ContinuousColumn, row)
      : labelAt(input, row) === labelAt(output as CategoricalColumn, row)
    if (!same) differing++
  }
  return differing
}

describe("fitTableTransformer on the shared datasets", () => {
  for (const name of ["penguins", "telco_churn", "credit_data", "diamonds"]) {
    it(`encodes ${name} into its spans and decodes it back with the same columns, types and values`, async () => {
      const table = await dataset(name)
      const transformer = fitTableTransformer(table, { seed: 1 })
      // The spans tile the encoded row exactly, in order.
      let offset = 0
      for (const span of transformer.spans) {
        expect(span.offset).toBe(offset)
        expect(span.width).toBeGreaterThan(0)
        expect(span.activation).toBe(span.role === "value" ? "tanh" : "softmax")
        offset += span.width
      }
      expect(offset).toBe(transformer.width)

      const checked = Math.min(table.rowCount, 2_000)
      const encoded = transformer.encode(table, allRows(table).subarray(0, checked), makeRandom(2))
      for (const span of transformer.spans) {
        for (let row = 0; row < checked; row++) {
          const part = encoded.subarray(row * transformer.width + span.offset, row * transformer.width + span.offset + span.width)
          if (span.role === "value") expect(Math.abs(part[0]!)).toBeLessThanOrEqual(Math.fround(0.99))
          else expect(Array.from(part).sort()).toEqual([...Array(span.width - 1).fill(0), 1])
        }
      }

      const decoded = roundTrip(transformer, table, 3)
      expect(decoded.rowCount).toBe(table.rowCount)
      expect(decoded.columns.map(({ kind, name, type }) => ({ kind, name, type }))).toEqual(
        table.columns.map(({ kind, name, type }) => ({ kind, name, type }))
      )
      decoded.columns.forEach((column, i) => {
        const input = table.columns[i]!
        if (input.kind === "categorical") {
          // Categories and missing values come back exactly.
          expect(differences(input, column)).toBe(0)
        } else {
          // A value further than 3.96 standard deviations from the mode it was drawn into is clipped (CTGAN's
          // encoding); everything else comes back exactly, rounded as the input was.
          expect(differences(input, column) / table.rowCount).toBeLessThan(0.01)
          expect(input.missing?.filter((flag) => flag === 1).length ?? 0).toBe(
            (column as ContinuousColumn).missing?.filter((flag) => flag === 1).length ?? 0
          )
        }
      })
    }, 60_000)
  }
})

const rows = 2_000

/** Dates (US format), datetimes on the minute, booleans with missing values, integers, floats with missing values. */
const mixedTable = (): SynthTable => {
  const random = makeRandom(9)
  return {
    rowCount: rows,
    columns: [
      { kind: "continuous", name: "day", type: "date", values: Float64Array.from({ length: rows }, () => 18_000 + random.integer(400)), missing: null, sourceFormat: "MM/DD/YYYY" },
      {
        kind: "continuous",
        name: "at",
        type: "datetime",
        values: Float64Array.from({ length: rows }, () => 1_599_999_960_000 + random.integer(500_000) * 60_000),
        missing: null,
        sourceFormat: "YYYY-MM-DD HH:mm"
      },
      { kind: "categorical", name: "active", type: "boolean", categories: ["false", "true"], codes: Int32Array.from({ length: rows }, (_, i) => (i % 13 === 0 ? -1 : random.integer(2))) },
      { kind: "continuous", name: "count", type: "integer", values: Float64Array.from({ length: rows }, () => (random.next() < 0.5 ? 3 : 40) + random.integer(5)), missing: null, sourceFormat: null },
      {
        kind: "continuous",
        name: "amount",
        type: "float",
        values: Float64Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? 0 : Math.round((100 + 15 * random.normal()) * 100) / 100)),
        missing: Uint8Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? 1 : 0)),
        sourceFormat: null
      }
    ]
  }
}

describe("fitTableTransformer on dates, datetimes, booleans and missing values", () => {
  it("restores them with their formats, and models missing values as indicators", () => {
    const table = mixedTable()
    const transformer = fitTableTransformer(table, { seed: 4 })
    expect(transformer.spans.filter((span) => span.role === "missing").map((span) => table.columns[span.column]!.name)).toEqual(["amount"])
    const decoded = roundTrip(transformer, table, 5)
    expect(decoded.columns.map((column) => (column.kind === "continuous" ? column.sourceFormat : null))).toEqual([
      "MM/DD/YYYY",
      "YYYY-MM-DD HH:mm",
      null,
      null,
      null
    ])
    // The boolean's missing values are a slot of the one-hot, and come back row for row.
    expect(differences(table.columns[2]!, decoded.columns[2]!)).toBe(0)
    for (const i of [0, 1, 3, 4]) expect(differences(table.columns[i]!, decoded.columns[i]!) / rows).toBeLessThan(0.01)
  })

  it("decodes any model output into values the input could hold: in range, rounded, never an unseen category", () => {
    const table = mixedTable()
    const transformer = fitTableTransformer(table, { seed: 6 })
    const [day, at, , count, amount] = table.columns as [ContinuousColumn, ContinuousColumn, CategoricalColumn, ContinuousColumn, ContinuousColumn]
    const range = (column: ContinuousColumn) => {
      const present = column.values.filter((_, row) => column.missing?.[row] !== 1)
      return [Math.min(...present), Math.max(...present)] as const
    }
    fc.assert(
      fc.property(fc.array(fc.float({ noDefaultInfinity: true }), { minLength: transformer.width * 20, maxLength: transformer.width * 20 }), (noise) => {
        const decoder = transformer.decoder(20, makeRandom(1))
        decoder.write(Float32Array.from(noise), 20)
        const decoded = decoder.finish()
        const [dayOut, atOut, activeOut, countOut, amountOut] = decoded.columns as [ContinuousColumn, ContinuousColumn, CategoricalColumn, ContinuousColumn, ContinuousColumn]
        for (const [input, output] of [[day, dayOut], [at, atOut], [count, countOut], [amount, amountOut]] as const) {
          const [low, high] = range(input)
          output.values.forEach((value, row) => {
            if (output.missing?.[row] === 1) return
            expect(value).toBeGreaterThanOrEqual(low)
            expect(value).toBeLessThanOrEqual(high)
          })
        }
        expect(dayOut.values.every(Number.isInteger) && countOut.values.every(Number.isInteger)).toBe(true)
        expect(atOut.values.every((value) => value % 60_000 === 0)).toBe(true)
        expect(dayOut.missing).toBeNull()
        expect(activeOut.codes.every((code) => code >= -1 && code < activeOut.categories.length)).toBe(true)
        expect(activeOut.categories).toEqual(["false", "true"])
      }),
      { numRuns: 50 }
    )
  })

  it("re-injects missing values at the rate a model's output gives them", () => {
    const table = mixedTable()
    const transformer = fitTableTransformer(table, { seed: 7 })
    const missingSpan = transformer.spans.find((span) => span.role === "missing")!
    const encoded = transformer.encode(table, allRows(table), makeRandom(8))
    const decoder = transformer.decoder(rows, makeRandom(9))
    decoder.write(encoded, rows)
    const amount = decoder.finish().columns[4] as ContinuousColumn
    const flagged = allRows(table).filter((row) => encoded[row * transformer.width + missingSpan.offset + 1] === 1).length
    expect(flagged).toBe(Math.ceil(rows / 7))
    expect(amount.missing?.filter((flag) => flag === 1).length).toBe(flagged)
  })
})

describe("a categorical column with thousands of categories", () => {
  const cardinality = 2_000
  const bigRows = 100_000
  /** Zipf-like: category k drawn with weight 1/(k+1); every category occurs at least once. */
  const highCardinality = (): SynthTable => {
    const random = makeRandom(11)
    const cumulative = Float64Array.from({ length: cardinality }, (_, k) => 1 / (k + 1))
    for (let k = 1; k < cardinality; k++) cumulative[k]! += cumulative[k - 1]!
    const total = cumulative[cardinality - 1]!
    const codes = Int32Array.from({ length: bigRows }, (_, row) => {
      if (row < cardinality) return row
      const target = random.next() * total
      let k = 0
      while (cumulative[k]! <= target) k++
      return k
    })
    return {
      rowCount: bigRows,
      columns: [{ kind: "categorical", name: "city", type: "string", categories: Array.from({ length: cardinality }, (_, k) => `city-${k}`), codes }]
    }
  }

  it("keeps the width at the cap, the frequent categories exact, and draws the rest by frequency", () => {
    const table = highCardinality()
    const transformer = fitTableTransformer(table, { seed: 12, maxCategories: 300 })
    expect(transformer.width).toBe(300)
    const input = table.columns[0] as CategoricalColumn
    const decoded = roundTrip(transformer, table, 13).columns[0] as CategoricalColumn
    expect(decoded.categories).toEqual(input.categories)
    const counts = (column: CategoricalColumn) => {
      const result = new Float64Array(cardinality)
      for (const code of column.codes) result[code]! += 1
      return result
    }
    const before = counts(input)
    const after = counts(decoded)
    // The 299 most frequent have their own slots: exact.
    const spec = transformer.columns[0]!
    if (spec.kind !== "categorical") throw new Error("expected a categorical spec")
    const own = new Set(spec.slotCategories)
    expect(own.size).toBe(299)
    const shared = Array.from({ length: cardinality }, (_, k) => k).filter((k) => !own.has(k))
    expect(Math.min(...Array.from(own, (k) => before[k]!))).toBeGreaterThanOrEqual(Math.max(...shared.map((k) => before[k]!)))
    for (const k of own) expect(after[k]).toBe(before[k])
    // The rest share "other": their total share is exact, and each keeps its frequency up to sampling noise.
    const rest = (values: Float64Array) => shared.reduce((sum, k) => sum + values[k]!, 0)
    expect(rest(after)).toBe(rest(before))
    // Per category the counts are small (sampling noise alone puts the total variation near 0.1), so compare ten
    // bands of them, from the more to the less frequent: each keeps its share within 5%.
    const band = Math.ceil(shared.length / 10)
    for (let start = 0; start < shared.length; start += band) {
      const members = shared.slice(start, start + band)
      const count = (values: Float64Array) => members.reduce((sum, k) => sum + values[k]!, 0)
      expect(Math.abs(count(after) - count(before)) / count(before)).toBeLessThan(0.05)
    }
  })

  it("never decodes a category that did not occur, even one in the column's category list", () => {
    const table: SynthTable = {
      rowCount: 4,
      columns: [{ kind: "categorical", name: "tier", type: "string", categories: ["gold", "unused", "silver"], codes: Int32Array.from([0, 2, 2, 0]) }]
    }
    const transformer = fitTableTransformer(table, { seed: 1 })
    expect(transformer.width).toBe(2)
    const decoder = transformer.decoder(2, makeRandom(1))
    decoder.write(Float32Array.from([0.1, 0.9, 0.8, 0.2]), 2)
    const decoded = decoder.finish().columns[0] as CategoricalColumn
    expect(decoded.categories).toEqual(["gold", "silver"])
    expect(Array.from(decoded.codes, (code) => decoded.categories[code])).toEqual(["silver", "gold"])
  })
})

describe("a stored transformer", () => {
  it("encodes and decodes exactly as the fitted one after a JSON round trip", async () => {
    const table = await dataset("penguins")
    const fitted = fitTableTransformer(table, { seed: 21 })
    const reloaded = Result.getOrThrow(tableTransformerFromJSON(JSON.parse(JSON.stringify(fitted.toJSON()))))
    expect(reloaded.spans).toEqual(fitted.spans)
    const encoded = fitted.encode(table, allRows(table), makeRandom(22))
    expect(reloaded.encode(table, allRows(table), makeRandom(22))).toEqual(encoded)
    const decode = (transformer: TableTransformer) => {
      const decoder = transformer.decoder(table.rowCount, makeRandom(23))
      decoder.write(encoded, table.rowCount)
      return decoder.finish()
    }
    expect(decode(reloaded)).toEqual(decode(fitted))
  })

  it("is refused when it is not a transformer or is inconsistent", async () => {
    const artifact = fitTableTransformer(await dataset("penguins"), { seed: 1 }).toJSON()
    const broken = JSON.parse(JSON.stringify(artifact)) as { columns: Array<Record<string, unknown>> }
    const numeric = broken.columns.find((column) => column.kind === "continuous") as { modes: { stds: Array<number> } }
    numeric.modes.stds[0] = -1
    for (const garbage of [null, {}, { ...artifact, version: 2 }, broken]) {
      expect(Result.isFailure(tableTransformerFromJSON(garbage))).toBe(true)
    }
  })

  it("refuses a table whose columns are not the fitted ones", async () => {
    const table = await dataset("penguins")
    const transformer = fitTableTransformer(table, { seed: 1 })
    const renamed: SynthTable = { ...table, columns: table.columns.map((column) => ({ ...column, name: `${column.name}_x` })) }
    expect(() => transformer.encode(renamed, [0], makeRandom(1))).toThrow(RangeError)
  })
})

describe("categorySlots", () => {
  it("gives each row's slot in its categorical span, the missing slot last", () => {
    const table = mixedTable()
    const transformer = fitTableTransformer(table, { seed: 1 })
    const slots = transformer.categorySlots(table, 2)
    const active = table.columns[2] as CategoricalColumn
    active.codes.forEach((code, row) => expect(slots[row]).toBe(code < 0 ? 2 : code))
    expect(() => transformer.categorySlots(table, 0)).toThrow(RangeError)
  })
})
