/**
 * The table, without its personal columns (those are faked before training): incomes with one person far
 * above everyone (9,876,543.21; the others under 600,000), ages with some missing, sign-up days, a city that one row
 * alone has ("Smallville") beside four common ones, and a yes/no column. What a private model must never publish:
 * that income, and that city.
 */
import { makeRandom } from "../../../random.ts"
import type { SynthTable } from "../../../table.ts"

export const OUTLIER_INCOME = 9_876_543.21
export const ONE_ROW_CITY = "Smallville"
export const COMMON_CITIES = ["Leeds", "York", "Bath", "Hull"] as const

export const customersTable = (rows: number, seed: number): SynthTable => {
  const random = makeRandom(seed)
  const outlierRow = random.integer(rows)
  const cityRow = random.integer(rows)
  const income = Float64Array.from({ length: rows }, (_, row) =>
    row === outlierRow ? OUTLIER_INCOME : Math.round(Math.min(599_999, 20_000 + Math.exp(10.5 + 0.6 * random.normal())) * 100) / 100)
  const age = Float64Array.from({ length: rows }, () => 18 + random.integer(63))
  const ageMissing = Uint8Array.from({ length: rows }, () => (random.next() < 0.05 ? 1 : 0))
  return {
    rowCount: rows,
    columns: [
      { kind: "continuous", name: "income", type: "float", values: income, missing: null, sourceFormat: null },
      { kind: "continuous", name: "age", type: "integer", values: age.map((value, row) => (ageMissing[row] === 1 ? 0 : value)), missing: ageMissing, sourceFormat: null },
      { kind: "continuous", name: "signup", type: "date", values: Float64Array.from({ length: rows }, () => 19_000 + random.integer(700)), missing: null, sourceFormat: "YYYY-MM-DD" },
      {
        kind: "categorical",
        name: "city",
        type: "string",
        categories: [...COMMON_CITIES, ONE_ROW_CITY],
        codes: Int32Array.from({ length: rows }, (_, row) => (row === cityRow ? 4 : random.integer(4)))
      },
      { kind: "categorical", name: "subscribed", type: "boolean", categories: ["false", "true"], codes: Int32Array.from({ length: rows }, () => (random.next() < 0.3 ? 1 : 0)) }
    ]
  }
}
