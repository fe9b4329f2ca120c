import type { SynthColumn, SynthTable } from "@synth/synth"
import { binIndices, binningValues, equalWidthEdges } from "./equalWidthBins.ts"

/** DisclosureProtection's default: continuous key columns fall into 10 equal-width bins of the attacked real rows. */
export const capBins = 10

/** Per row, small integer ids of a column's values that are equal exactly when the values are (missing: one id). */
type ColumnIds = Int32Array

const MISSING = -1

/** Label ids shared by both tables (equal labels, equal ids); missing stays −1 and becomes a category below. */
const labelIds = (columns: ReadonlyArray<SynthColumn | undefined>): ReadonlyArray<ColumnIds> => {
  const ids = new Map<string, number>()
  return columns.map((column) => {
    if (column === undefined || column.kind !== "categorical") return new Int32Array(0)
    const mapped = column.categories.map((label) => {
      let id = ids.get(label)
      if (id === undefined) ids.set(label, (id = ids.size))
      return id
    })
    return Int32Array.from(column.codes, (code) => (code < 0 ? MISSING : mapped[code]!))
  })
}

/**
 * One key or sensitive column of the attacked rows and of the synthetic rows as ids: labels as they are, numbers,
 * dates and datetimes in the bins of the attacked rows (the synthetic rows' outer bins open, as DisclosureProtection
 * does). `binsFrom` fixes the edges when two attacks must see the same keys. Missing is a category of its own
 * (DisclosureProtection's `__NULL_VALUE__`).
 */
const columnIds = (name: string, attacked: SynthTable, synthetic: SynthTable, binsFrom: SynthTable): readonly [ColumnIds, ColumnIds] => {
  const column = (table: SynthTable) => table.columns.find((candidate) => candidate.name === name)
  const real = column(attacked), fake = column(synthetic), reference = column(binsFrom)
  if (real === undefined || fake === undefined || reference === undefined || real.kind !== fake.kind || real.kind !== reference.kind) {
    throw new Error(`column ${name} must be in both tables with the same kind to attack it`)
  }
  if (real.kind === "categorical") return labelIds([real, fake]) as [ColumnIds, ColumnIds]
  const edges = equalWidthEdges(binningValues(reference as typeof real), capBins)
  if (edges === null) return [new Int32Array(attacked.rowCount).fill(MISSING), new Int32Array(synthetic.rowCount).fill(MISSING)]
  return [binIndices(binningValues(real), edges, reference !== real), binIndices(binningValues(fake as typeof real), edges, true)]
}

/** The key of each row: its key columns' ids joined (missing included), so equal keys are equal strings. */
const rowKeys = (columns: ReadonlyArray<ColumnIds>, rows: number): ReadonlyArray<string> =>
  Array.from({ length: rows }, (_, row) => columns.map((ids) => ids[row]).join(","))

export interface CapScores {
  /** Per attacked row, the share of synthetic rows with its key that hold its sensitive value; NaN: no such row. */
  readonly perRow: Float64Array
  /** SDMetrics' CategoricalCAP: 1 − the mean of perRow over the rows whose key is in the output; NaN when none is. */
  readonly capProtection: number
  /** SDMetrics' CategoricalZeroCAP: the same with a row whose key is not in the output scoring 0. */
  readonly zeroCapProtection: number
  /** 1 − 1/(distinct sensitive values of the attacked rows, missing counting as one): what guessing achieves. */
  readonly baselineProtection: number
  /** SDMetrics' DisclosureProtection: min(capProtection / baselineProtection, 1); NaN when the baseline is 0. */
  readonly disclosureProtection: number
  /** Attacked rows whose key is in the output. */
  readonly matchedRows: number
}

export interface CapAttackInput {
  /** The real rows attacked: the attacker knows their key columns and guesses their sensitive column. */
  readonly attacked: SynthTable
  readonly synthetic: SynthTable
  readonly keys: ReadonlyArray<string>
  readonly sensitive: string
  /** Whose values the continuous keys' bins are drawn from (default: the attacked rows, as SDMetrics does). */
  readonly binsFrom?: SynthTable
}

/**
 * The CAP (correct attribution probability) attack of SDMetrics' DisclosureProtection with `computation_method`
 * "cap": the attacker knows a real person's key columns (the quasi-identifiers), finds the synthetic rows with the
 * same keys and believes each sensitive value in proportion to how often those rows hold it. The scores follow
 * SDMetrics 0.32 (CategoricalCAP, CategoricalZeroCAP, DisclosureProtection): continuous keys binned as above, missing
 * values a category of their own.
 */
export const capAttack = (input: CapAttackInput): CapScores => {
  const { attacked, synthetic, keys, sensitive } = input
  const binsFrom = input.binsFrom ?? attacked
  if (keys.length === 0) throw new Error("the CAP attack needs at least one key column")
  const keyIds = keys.map((name) => columnIds(name, attacked, synthetic, binsFrom))
  const [realSensitive, syntheticSensitive] = columnIds(sensitive, attacked, synthetic, binsFrom)
  const realKeys = rowKeys(keyIds.map(([real]) => real), attacked.rowCount)
  const syntheticKeys = rowKeys(keyIds.map(([, fake]) => fake), synthetic.rowCount)

  const byKey = new Map<string, Map<number, number>>()
  syntheticKeys.forEach((key, row) => {
    let counts = byKey.get(key)
    if (counts === undefined) byKey.set(key, (counts = new Map()))
    const value = syntheticSensitive[row]!
    counts.set(value, (counts.get(value) ?? 0) + 1)
  })
  const totals = new Map([...byKey].map(([key, counts]) => [key, [...counts.values()].reduce((sum, count) => sum + count, 0)]))

  const perRow = new Float64Array(attacked.rowCount)
  let matchedRows = 0, matchedSum = 0
  realKeys.forEach((key, row) => {
    const counts = byKey.get(key)
    if (counts === undefined) {
      perRow[row] = NaN
      return
    }
    const share = (counts.get(realSensitive[row]!) ?? 0) / totals.get(key)!
    perRow[row] = share
    matchedRows++
    matchedSum += share
  })
  const baselineProtection = attacked.rowCount === 0 ? NaN : 1 - 1 / new Set(realSensitive).size
  const capProtection = matchedRows === 0 ? NaN : 1 - matchedSum / matchedRows
  return {
    perRow,
    capProtection,
    zeroCapProtection: attacked.rowCount === 0 ? NaN : 1 - matchedSum / attacked.rowCount,
    baselineProtection,
    disclosureProtection: baselineProtection === 0 ? NaN : Math.min(capProtection / baselineProtection, 1),
    matchedRows
  }
}
