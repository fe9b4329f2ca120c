import type { SynthColumn, SynthTable } from "@synth/synth"
import { columnOf } from "./target.ts"

/** Categorical columns get a one-hot feature for at most this many labels (the real table's most frequent). */
export const maxOneHotLabels = 20

/**
 * One model input. `value`: a numeric column as is (dates as days, datetimes as ms), missing → the training rows'
 * median; `missing`: 1 where that column is missing (only for columns with a missing value in either table);
 * `label`: 1 where a categorical column has this label; `otherLabels`: 1 for a label outside the one-hot labels
 * (only when the real table has more than `maxOneHotLabels` labels). A missing label is 0 in all of its column's features.
 */
export type Feature =
  | { readonly kind: "value"; readonly column: string }
  | { readonly kind: "missing"; readonly column: string }
  | { readonly kind: "label"; readonly column: string; readonly label: string }
  | { readonly kind: "otherLabels"; readonly column: string; readonly labels: ReadonlySet<string> }

export interface FeatureLayout {
  readonly features: ReadonlyArray<Feature>
}

/** Column-major: feature f of row r is `values[f * rowCount + r]`, the layout trees scan fastest. */
export interface FeatureMatrix {
  readonly rowCount: number
  readonly featureCount: number
  readonly values: Float64Array
}

const hasMissing = (column: SynthColumn) => (column.kind === "continuous" ? column.missing?.includes(1) === true : column.codes.includes(-1))

const labelsByFrequency = (column: SynthColumn & { kind: "categorical" }): ReadonlyArray<string> => {
  const counts = new Float64Array(column.categories.length)
  for (const code of column.codes) if (code >= 0) counts[code]!++
  return column.categories
    .map((label, code) => ({ label, count: counts[code]! }))
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .map(({ label }) => label)
}

/**
 * The features of every column but the target, decided from the real table (labels, width) and both tables
 * (missing indicators), so a model trained on either table reads the other's rows the same way.
 */
export const planFeatures = (real: SynthTable, synthetic: SynthTable, targetColumn: string): FeatureLayout => {
  const features: Array<Feature> = []
  for (const column of real.columns) {
    if (column.name === targetColumn) continue
    const other = columnOf(synthetic, column.name)
    if (other.kind !== column.kind) throw new Error(`column ${JSON.stringify(column.name)} is ${column.kind} in the real table but ${other.kind} in the synthetic one`)
    if (column.kind === "continuous") {
      features.push({ kind: "value", column: column.name })
      if (hasMissing(column) || hasMissing(other)) features.push({ kind: "missing", column: column.name })
      continue
    }
    const labels = labelsByFrequency(column)
    const kept = labels.slice(0, maxOneHotLabels)
    for (const label of kept) features.push({ kind: "label", column: column.name, label })
    if (labels.length > kept.length) features.push({ kind: "otherLabels", column: column.name, labels: new Set(kept) })
  }
  return { features }
}

const median = (values: Array<number>): number => {
  if (values.length === 0) return 0
  values.sort((a, b) => a - b)
  const middle = values.length >> 1
  return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2
}

/** Per feature, the value a missing entry takes: the median of `rows` of `table` for `value` features (0 when all are missing). */
export const fitImputation = (layout: FeatureLayout, table: SynthTable, rows: Int32Array): Float64Array =>
  Float64Array.from(layout.features, (feature) => {
    if (feature.kind !== "value") return 0
    const column = columnOf(table, feature.column)
    if (column.kind !== "continuous") return 0
    const present: Array<number> = []
    for (const row of rows) if (column.missing?.[row] !== 1) present.push(column.values[row]!)
    return median(present)
  })

/** The feature matrix of `rows` of `table`. */
export const encodeFeatures = (layout: FeatureLayout, table: SynthTable, rows: Int32Array, imputation: Float64Array): FeatureMatrix => {
  const rowCount = rows.length
  const values = new Float64Array(layout.features.length * rowCount)
  layout.features.forEach((feature, f) => {
    const column = columnOf(table, feature.column)
    const out = values.subarray(f * rowCount, (f + 1) * rowCount)
    if (column.kind === "continuous") {
      const isMissing = (row: number) => column.missing?.[row] === 1
      if (feature.kind === "value") rows.forEach((row, i) => (out[i] = isMissing(row) ? imputation[f]! : column.values[row]!))
      else if (feature.kind === "missing") rows.forEach((row, i) => (out[i] = isMissing(row) ? 1 : 0))
      return
    }
    // Per code of this table's column: 1 or 0 for this feature (labels matched by text, tables may order them differently).
    const hot = Uint8Array.from(column.categories, (label) =>
      feature.kind === "label" ? Number(label === feature.label) : feature.kind === "otherLabels" ? Number(!feature.labels.has(label)) : 0
    )
    rows.forEach((row, i) => {
      const code = column.codes[row]!
      out[i] = code < 0 ? 0 : hot[code]!
    })
  })
  return { rowCount, featureCount: layout.features.length, values }
}

export const featureName = (feature: Feature): string =>
  feature.kind === "value" ? feature.column : feature.kind === "missing" ? `${feature.column}__missing` : feature.kind === "label" ? `${feature.column}=${feature.label}` : `${feature.column}=__other`
