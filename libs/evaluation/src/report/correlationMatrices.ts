import { type ContinuousColumn, pearson, type SynthTable } from "@synth/synth"
import { pairColumns } from "../statistical/columnValues.ts"

export interface CorrelationMatrices {
  /** The numeric columns (dates and datetimes as numbers), in the real table's order. */
  readonly columns: ReadonlyArray<string>
  /** Pearson r at [i][j] over the rows where both values are present; null for a constant column or under two rows. */
  readonly real: ReadonlyArray<ReadonlyArray<number | null>>
  readonly synthetic: ReadonlyArray<ReadonlyArray<number | null>>
}

const withNaN = (column: ContinuousColumn): Float64Array =>
  column.missing === null ? column.values : column.values.map((value, row) => (column.missing![row] === 1 ? NaN : value))

const matrix = (columns: ReadonlyArray<Float64Array>): ReadonlyArray<ReadonlyArray<number | null>> => {
  const cells = columns.map(() => new Array<number | null>(columns.length).fill(null))
  columns.forEach((x, i) => {
    for (let j = i; j < columns.length; j++) {
      const r = pearson(x, columns[j]!)
      cells[i]![j] = cells[j]![i] = Number.isNaN(r) ? null : r
    }
  })
  return cells
}

/** Pearson correlation matrices of the real and the synthetic numeric columns, side by side. */
export const correlationMatrices = (real: SynthTable, synthetic: SynthTable): CorrelationMatrices => {
  const numeric = pairColumns(real, synthetic).flatMap((pair) => (pair.kind === "continuous" ? [pair] : []))
  return {
    columns: numeric.map((pair) => pair.name),
    real: matrix(numeric.map((pair) => withNaN(pair.real))),
    synthetic: matrix(numeric.map((pair) => withNaN(pair.synthetic)))
  }
}
