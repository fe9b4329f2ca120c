import { sharedLabelIds, type SynthColumn, type SynthTable } from "@synth/synth"
import { comparableValues, unitOf, type ValueUnit } from "./comparableValues.ts"
import { type BoundaryAdherence, boundaryAdherence } from "./boundaryAdherence.ts"
import { type CategoryAdherence, categoryAdherence } from "./categoryAdherence.ts"
import { type TableStructure, tableStructure } from "./tableStructure.ts"

export type ValidityDetail =
  | ({ readonly column: string; readonly metric: "BoundaryAdherence"; readonly unit: ValueUnit } & BoundaryAdherence)
  | ({ readonly column: string; readonly metric: "CategoryAdherence" } & CategoryAdherence)

export interface DiagnosticReport {
  /** Mean of the two property scores (a property without a score is left out). */
  readonly score: number | null
  readonly properties: {
    /** Mean of the column scores that could be computed. */
    readonly dataValidity: { readonly score: number | null; readonly details: ReadonlyArray<ValidityDetail> }
    readonly dataStructure: { readonly score: number; readonly details: TableStructure }
  }
}

const meanOf = (values: ReadonlyArray<number | null>): number | null => {
  const present = values.filter((value): value is number => value !== null)
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length
}

const validity = (name: string, real: SynthColumn | undefined, synthetic: SynthColumn | undefined): ValidityDetail => {
  const decider = real ?? synthetic!
  if (decider.kind === "continuous") {
    // SDMetrics fails the metric when either table lacks the column (or holds text there): no score.
    if (real?.kind !== "continuous" || synthetic?.kind !== "continuous") {
      return { column: name, metric: "BoundaryAdherence", unit: "value", score: null, realMin: null, realMax: null, outside: 0 }
    }
    return { column: name, metric: "BoundaryAdherence", unit: unitOf(real, synthetic), ...boundaryAdherence(...comparableValues(real, synthetic)) }
  }
  if (real?.kind !== "categorical" || synthetic?.kind !== "categorical") {
    return { column: name, metric: "CategoryAdherence", score: null, unknownCategories: [], invalid: 0 }
  }
  const ids = sharedLabelIds(real, synthetic)
  return { column: name, metric: "CategoryAdherence", ...categoryAdherence(ids.real, ids.synthetic, ids.labels) }
}

/**
 * SDMetrics' single-table DiagnosticReport (0.32): Data Validity — BoundaryAdherence for numerical, date and
 * datetime columns, CategoryAdherence for string and boolean ones — and Data Structure — TableStructure. Columns are
 * the real table's, then those only the synthetic table has; one missing from either table gets no score. `structure`
 * replaces the TableStructure of the two tables when the output's expected shape differs from the real table's
 * (columns the generator dropped, faked or hashed; see evaluatedColumns).
 */
export const diagnosticReport = (real: SynthTable, synthetic: SynthTable, structure: TableStructure = tableStructure(real, synthetic)): DiagnosticReport => {
  const realByName = new Map(real.columns.map((column) => [column.name, column]))
  const syntheticByName = new Map(synthetic.columns.map((column) => [column.name, column]))
  const names = [...realByName.keys(), ...[...syntheticByName.keys()].filter((name) => !realByName.has(name))]
  const details = names.map((name) => validity(name, realByName.get(name), syntheticByName.get(name)))
  const validityScore = meanOf(details.map(({ score }) => score))
  return {
    score: meanOf([validityScore, structure.score]),
    properties: {
      dataValidity: { score: validityScore, details },
      dataStructure: { score: structure.score, details: structure }
    }
  }
}
