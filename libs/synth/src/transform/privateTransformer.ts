import { approximateRange, logEdges } from "../privacy/approximateBounds.ts"
import type { ColumnAllocation } from "../privacy/budgetSplit.ts"
import { exponentialQuantile } from "../privacy/exponentialQuantile.ts"
import type { PrivacyLedger } from "../privacy/ledger.ts"
import { noisyCategories, noisyHistogram } from "../privacy/noisyCounts.ts"
import type { Random } from "../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthColumn, SynthTable } from "../table.ts"
import type { CategoricalSpec } from "./categoricalColumn.ts"
import type { ContinuousSpec } from "./continuousColumn.ts"
import { LOWER_QUANTILE, privateSpecsOf, publicSchemaOf, UPPER_QUANTILE } from "./privateSpecs.ts"
import { DEFAULT_MAX_CATEGORIES, type TableTransformer, tableTransformerOf } from "./tableTransformer.ts"

/**
 * The table transformer of a differentially private model and the rows it trains on. Each column spends its
 * allocation through the ledger:
 * - a number, date or datetime column: half on a noisy log-scale histogram of its values and missing values (the
 *   approximate bounds), a quarter on each of its LOWER_QUANTILE and UPPER_QUANTILE by the exponential mechanism
 *   inside them: its range;
 * - a string or boolean column: all of it on its labels' noisy counts (a string column's thresholded).
 * The transformer is built from those releases and the schema alone (privateSpecs.ts). The rows the model trains on
 * are the table's rows, each changed on its own: numbers clamped to the released range (one person's outlier becomes
 * the range's edge, so no value beyond it is ever learned), a missing number without a released missing indicator set
 * to the range's middle, and a label that was not released (or a missing label without a released missing slot)
 * redrawn among the released labels by their noisy counts, so no rare label is learned and its rows still count. A
 * change of one row changes one training row: DP-SGD's guarantee holds for these rows as for the originals.
 */
export interface PrivateTransformerFit {
  readonly transformer: TableTransformer
  /** The rows as the model trains on them (see above). */
  readonly table: SynthTable
  /** Per categorical column, its slots' noisy counts: what CTGAN's conditional vectors are drawn by. */
  readonly slotWeights: ReadonlyArray<Float64Array>
}

export interface PrivateTransformerOptions {
  readonly maxCategories?: number
}

const presentValues = (column: ContinuousColumn): Float64Array =>
  column.missing === null ? column.values : column.values.filter((_, row) => column.missing![row] !== 1)

const releaseContinuous = (column: ContinuousColumn, allocation: ColumnAllocation, ledger: PrivacyLedger, random: Random) => {
  const present = presentValues(column)
  const histogram = noisyHistogram(ledger, column.name, present, column.values.length - present.length, logEdges(column.type), allocation.epsilon / 2, random)
  const range = approximateRange(histogram)
  const clamped = Float64Array.from(present, (value) => Math.min(range.high, Math.max(range.low, value))).sort()
  for (const probability of [LOWER_QUANTILE, UPPER_QUANTILE]) {
    exponentialQuantile(ledger, column.name, clamped, probability, range, allocation.epsilon / 4, random)
  }
}

const releaseCategorical = (column: CategoricalColumn, allocation: ColumnAllocation, ledger: PrivacyLedger, random: Random) => {
  const byCode = new Float64Array(column.categories.length)
  let missing = 0
  for (const code of column.codes) {
    if (code < 0) missing++
    else byCode[code]! += 1
  }
  const counts = new Map<string, number>()
  if (column.type === "boolean") {
    for (const label of ["false", "true"]) counts.set(label, 0)
  }
  column.categories.forEach((label, code) => {
    if (byCode[code]! > 0 || column.type === "boolean") counts.set(label, (counts.get(label) ?? 0) + byCode[code]!)
  })
  noisyCategories(ledger, column.name, { counts, missing, public: column.type === "boolean" }, allocation.epsilon, allocation.delta, random)
}

/** Draws an index by weights (evenly when none is above zero). */
const drawIndex = (weights: Float64Array, random: Random): number => {
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  if (!(total > 0)) return random.integer(weights.length)
  let target = random.next() * total
  for (let k = 0; k < weights.length; k++) {
    target -= weights[k]!
    if (target < 0) return k
  }
  return weights.length - 1
}

const privateContinuous = (column: ContinuousColumn, spec: ContinuousSpec): ContinuousColumn => {
  const values = Float64Array.from(column.values, (value, row) =>
    column.missing?.[row] === 1 ? spec.fill : Math.min(spec.max, Math.max(spec.min, value)))
  return { ...column, values, missing: spec.hasMissing ? column.missing : null }
}

const privateCategorical = (column: CategoricalColumn, spec: CategoricalSpec, weights: Float64Array, random: Random): CategoricalColumn => {
  const released = new Map(spec.categories.map((label, index) => [label, index]))
  const codeOf = Int32Array.from(column.categories, (label) => released.get(label) ?? -2)
  const redraw = () => (spec.categories.length === 0 ? -1 : drawIndex(weights, random))
  const codes = Int32Array.from(column.codes, (code) => {
    if (code < 0) return spec.hasMissing ? -1 : redraw()
    const mapped = codeOf[code]!
    return mapped === -2 ? redraw() : mapped
  })
  return { kind: "categorical", name: column.name, type: column.type, categories: spec.categories, codes }
}

/** Spends each column's allocation through the ledger and builds the transformer and training rows from the releases. */
export const fitPrivateTableTransformer = (
  table: SynthTable,
  allocations: ReadonlyArray<ColumnAllocation>,
  ledger: PrivacyLedger,
  random: Random,
  options: PrivateTransformerOptions = {}
): PrivateTransformerFit => {
  if (allocations.length !== table.columns.length) throw new RangeError("one allocation per column is needed")
  table.columns.forEach((column, i) => {
    if (column.kind === "continuous") releaseContinuous(column, allocations[i]!, ledger, random)
    else releaseCategorical(column, allocations[i]!, ledger, random)
  })
  const { labelWeights, slotWeights, specs } = privateSpecsOf(publicSchemaOf(table), ledger.releases(), options.maxCategories ?? DEFAULT_MAX_CATEGORIES)
  const columns = table.columns.map((column, i): SynthColumn => {
    const spec = specs[i]!
    if (column.kind === "continuous" && spec.kind === "continuous") return privateContinuous(column, spec)
    if (column.kind === "categorical" && spec.kind === "categorical") return privateCategorical(column, spec, labelWeights[i]!, random)
    throw new RangeError(`column ${column.name}: its spec is of another kind`)
  })
  return { transformer: tableTransformerOf(specs), table: { rowCount: table.rowCount, columns }, slotWeights }
}
