import type { SynthColumn, SynthTable } from "@synth/synth"

/** What the models predict: one of `classes` (in this order, codes 0…k−1), or a number. */
export type Task = { readonly kind: "classification"; readonly classes: ReadonlyArray<string> } | { readonly kind: "regression" }

export interface Target {
  readonly column: string
  readonly task: Task
}

/** Numeric targets with this many distinct values or fewer (and integer-typed) are classes, not quantities. */
export const maxNumericClasses = 10
/** A categorical column qualifies as an inferred target when it has between 2 and this many classes. */
export const maxInferredClasses = 20

const distinctLabels = (column: SynthColumn): ReadonlyArray<string> => {
  if (column.kind === "categorical") {
    const used = new Set<number>()
    for (const code of column.codes) if (code >= 0) used.add(code)
    // Code-unit order, as numpy's np.unique sorts strings: class 1 of a binary target is then the same as in sklearn.
    return [...used].map((code) => column.categories[code]!).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  }
  const values = new Set<number>()
  for (let i = 0; i < column.values.length; i++) if (column.missing?.[i] !== 1) values.add(column.values[i]!)
  return [...values].sort((a, b) => a - b).map(String)
}

const isNumericClassTarget = (column: SynthColumn) => {
  if (column.kind !== "continuous" || column.type !== "integer") return false
  const count = distinctLabels(column).length
  return count >= 2 && count <= maxNumericClasses
}

/**
 * The target when the config names none, from the real table:
 * 1. the last categorical (string or boolean) column with 2–20 distinct labels;
 * 2. else the last integer column with 2–10 distinct values (a coded class such as 0/1);
 * 3. else the last numeric (integer, float, date or datetime) column with at least two distinct values (regression).
 * "Last" because exported tables tend to put identifiers first and outcomes last. Throws when nothing qualifies.
 */
export const inferTargetColumn = (real: SynthTable): string => {
  const columns = [...real.columns].reverse()
  const categorical = columns.find((column) => {
    if (column.kind !== "categorical") return false
    const count = distinctLabels(column).length
    return count >= 2 && count <= maxInferredClasses
  })
  const chosen = categorical ?? columns.find(isNumericClassTarget) ?? columns.find((column) => column.kind === "continuous" && distinctLabels(column).length >= 2)
  if (chosen === undefined) throw new Error("no column can serve as the ML utility target: name one in target_column")
  return chosen.name
}

/**
 * Classification for categorical columns and integer columns with 2–10 distinct values (classes = the real table's
 * labels, sorted); regression for every other numeric column (dates and datetimes as their day / millisecond numbers).
 */
export const resolveTarget = (real: SynthTable, name: string): Target => {
  const column = real.columns.find((candidate) => candidate.name === name)
  if (column === undefined) throw new Error(`target_column ${JSON.stringify(name)} is not a column of the real table`)
  if (column.kind === "categorical" || isNumericClassTarget(column)) {
    const classes = distinctLabels(column)
    if (classes.length < 2) throw new Error(`target_column ${JSON.stringify(name)} has fewer than two classes in the real table`)
    return { column: name, task: { kind: "classification", classes } }
  }
  return { column: name, task: { kind: "regression" } }
}

export const columnOf = (table: SynthTable, name: string): SynthColumn => {
  const column = table.columns.find((candidate) => candidate.name === name)
  if (column === undefined) throw new Error(`column ${JSON.stringify(name)} is missing from a table given to ML utility`)
  return column
}

/**
 * The target of every row of `table` as a class code (−1 when missing or a label the real table does not have) for
 * classification, or as a number (NaN when missing) for regression.
 */
export const targetOf = (target: Target, table: SynthTable): Int32Array | Float64Array => {
  const column = columnOf(table, target.column)
  const isMissing = (row: number) => (column.kind === "continuous" ? column.missing?.[row] === 1 : column.codes[row]! < 0)
  if (target.task.kind === "regression") {
    if (column.kind !== "continuous") throw new Error(`target ${JSON.stringify(target.column)} is numeric in the real table but not in the synthetic one`)
    return Float64Array.from({ length: table.rowCount }, (_, row) => (isMissing(row) ? NaN : column.values[row]!))
  }
  const classIndex = new Map(target.task.classes.map((label, index) => [label, index]))
  const labelOf = (row: number) => (column.kind === "categorical" ? column.categories[column.codes[row]!]! : String(column.values[row]!))
  return Int32Array.from({ length: table.rowCount }, (_, row) => (isMissing(row) ? -1 : (classIndex.get(labelOf(row)) ?? -1)))
}

/** Rows whose target is known: the only rows ML utility trains or scores on. */
export const rowsWithTarget = (values: Int32Array | Float64Array): Int32Array => {
  const rows: Array<number> = []
  for (let row = 0; row < values.length; row++) if (values instanceof Int32Array ? values[row]! >= 0 : !Number.isNaN(values[row]!)) rows.push(row)
  return Int32Array.from(rows)
}
