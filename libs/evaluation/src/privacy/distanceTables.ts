import { sharedLabelIds, type SynthTable } from "@synth/synth"
import { comparableValues } from "../diagnostic/comparableValues.ts"

/** One column of a distance computation: the rows whose distances are measured and the rows they are measured to. */
export type DistanceColumn =
  | {
    readonly kind: "continuous"
    readonly name: string
    /** NaN where missing. */
    readonly rows: Float64Array
    readonly reference: Float64Array
    /** max − min of the reference's present values (NaN when it has none). */
    readonly range: number
  }
  | { readonly kind: "categorical"; readonly name: string; readonly rows: Int32Array; readonly reference: Int32Array }

export interface DistanceTables {
  readonly columns: ReadonlyArray<DistanceColumn>
  readonly rowCount: number
  readonly referenceCount: number
}

const rangeOf = (values: Float64Array): number => {
  let min = Infinity, max = -Infinity
  for (const value of values) {
    if (value < min) min = value
    if (value > max) max = value
  }
  return min <= max ? max - min : NaN
}

/**
 * The columns both tables have (same kind), in `rows`' order, ready for closestRecords: continuous values in one
 * unit with the reference's range, categories as shared ids (−1 missing). The reference decides the ranges, as in
 * SDMetrics' calculate_dcr.
 */
export const distanceTables = (rows: SynthTable, reference: SynthTable): DistanceTables => {
  const referenceByName = new Map(reference.columns.map((column) => [column.name, column]))
  const columns = rows.columns.flatMap((column): Array<DistanceColumn> => {
    const partner = referenceByName.get(column.name)
    if (column.kind === "continuous" && partner?.kind === "continuous") {
      const [values, referenceValues] = comparableValues(column, partner)
      return [{ kind: "continuous", name: column.name, rows: values, reference: referenceValues, range: rangeOf(referenceValues) }]
    }
    if (column.kind === "categorical" && partner?.kind === "categorical") {
      const ids = sharedLabelIds(column, partner)
      return [{ kind: "categorical", name: column.name, rows: ids.real, reference: ids.synthetic }]
    }
    return []
  })
  if (columns.length === 0) throw new Error("the two tables have no column in common to measure distances on")
  return { columns, rowCount: rows.rowCount, referenceCount: reference.rowCount }
}
