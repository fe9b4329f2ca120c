import { nameWords } from "../context/columnName.ts"
import type { ColumnSample } from "../types.ts"

export interface ColumnStatistics {
  readonly name: string
  readonly present: number
  readonly distinct: number
  /** distinct / present: 1 when every value differs. */
  readonly distinctShare: number
  /** Share of present values that occur once in the sample. */
  readonly singletonShare: number
  /** Integers 0..n-1 or 1..n (or any run of consecutive integers) in some order: a row number, not an identity. */
  readonly consecutiveIntegers: boolean
}

export const columnStatistics = (column: ColumnSample): ColumnStatistics => {
  const counts = new Map<string, number>()
  let present = 0
  for (const value of column.values) {
    if (value === null) continue
    present++
    counts.set(value, (counts.get(value) ?? 0) + 1)
  }
  let singletons = 0
  for (const count of counts.values()) if (count === 1) singletons++
  let consecutiveIntegers = false
  if (column.kind === "integer" && counts.size === present && present > 1) {
    let low = Infinity
    let high = -Infinity
    for (const value of counts.keys()) {
      const number = Number(value)
      low = Math.min(low, number)
      high = Math.max(high, number)
    }
    consecutiveIntegers = high - low + 1 === present
  }
  return {
    name: column.name,
    present,
    distinct: counts.size,
    distinctShare: present === 0 ? 0 : counts.size / present,
    singletonShare: present === 0 ? 0 : singletons / present,
    consecutiveIntegers
  }
}

/** Rows needed before "every value differs" means anything. */
const minimumRows = 20

/** Words that name an amount: `stock_count`, `page_views`, `population` are distinct integers without naming anyone. */
const measureWords = new Set([
  "count", "counts", "total", "sum", "avg", "mean", "amount", "qty", "quantity", "price", "cost", "score", "rate",
  "ratio", "size", "length", "weight", "height", "age", "balance", "income", "salary", "revenue", "views", "visits",
  "population", "steps", "duration", "stock", "units", "bytes", "pages", "clicks", "distance", "volume", "anzahl",
  "menge", "betrag", "preis", "montant", "prix", "cantidad", "importe", "precio", "quantita", "prezzo", "aantal",
  "bedrag", "prijs", "quantidade", "valor", "preco"
])

/**
 * Columns that single out rows by themselves: text or integer values nearly all distinct (≥ 95 % of at least 20
 * present values, present in ≥ 90 % of rows). Measurements (floats, timestamps, integers named as amounts) are
 * distinct without naming anyone, and a run of consecutive integers is a row number: none of them counts. The scan
 * also leaves out integer Unix times and text that reads as products or companies (scan/scanColumns.ts).
 */
export const isIdentifier = (column: ColumnSample, statistics: ColumnStatistics): boolean =>
  (column.kind === "string" || column.kind === "integer") &&
  statistics.present >= minimumRows &&
  statistics.present >= 0.9 * column.values.length &&
  statistics.distinctShare >= 0.95 &&
  !statistics.consecutiveIntegers &&
  !(column.kind === "integer" && nameWords(column.name).some((word) => measureWords.has(word)))
