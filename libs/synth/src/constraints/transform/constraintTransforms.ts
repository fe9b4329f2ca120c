import type { SynthColumn, SynthTable } from "../../table.ts"
import type { Constraint } from "../rules.ts"
import { isNumericType, valueInColumnUnits } from "../values.ts"
import type { ColumnLookup, ColumnTransform, TransformJson } from "./ColumnTransform.ts"
import { fitInequalityTransform, inequalityTransformFromJSON } from "./inequalityTransform.ts"
import { fitJointCategoryTransform, jointCategoryTransformFromJSON } from "./jointCategoryTransform.ts"
import { fitRangeTransform, rangeTransformFromJSON } from "./rangeTransform.ts"
import { StoredTransformError } from "./storedFields.ts"

/**
 * The constraints met by construction, as one reversible step between the learned table and the model: `forward`
 * gives the table the model trains on, `reverse` turns the model's rows back into the learned table's columns, in
 * their order. Which constraints transform (planTransforms) is decided once, at training, and stored.
 */
export interface ConstraintTransforms {
  readonly forward: (table: SynthTable) => SynthTable
  readonly reverse: (table: SynthTable) => SynthTable
  /** Whether a learned column reaches the model as it is (a condition on it can then steer the model itself). */
  readonly keepsColumn: (name: string) => boolean
  readonly toJSON: () => TransformsJson
}

export interface TransformsJson {
  /** The learned table's columns, in order. */
  readonly columns: ReadonlyArray<string>
  readonly transforms: ReadonlyArray<TransformJson>
}

/**
 * Fixed combinations sharing a column are met together: one joint category over all their columns (a combination
 * of the union that occurs in the data has each group's part occur too). Groups in order of their first column's
 * appearance in the request.
 */
export const fixedCombinationGroups = (constraints: ReadonlyArray<Constraint>): ReadonlyArray<ReadonlyArray<string>> => {
  const groups: Array<Array<string>> = []
  for (const constraint of constraints) {
    if (constraint.type !== "fixed_combinations") continue
    const overlapping = groups.filter((group) => group.some((name) => constraint.columns.includes(name)))
    const merged = [...new Set([...overlapping.flat(), ...constraint.columns])]
    const kept = groups.filter((group) => !overlapping.includes(group))
    groups.length = 0
    groups.push(...kept, merged)
  }
  return groups
}

const tableTransforms = (columns: ReadonlyArray<string>, transforms: ReadonlyArray<ColumnTransform>): ConstraintTransforms => {
  const replaced = new Set(transforms.flatMap((transform) => transform.replaces))

  const forward = (table: SynthTable): SynthTable => {
    const byName = new Map(table.columns.map((column) => [column.name, column]))
    const lookup: ColumnLookup = (name) => byName.get(name)!
    const ownColumns = new Map(transforms.map((transform) => [transform.replaces[0]!, transform.forward(lookup, table.rowCount)]))
    const learned = table.columns.flatMap((column): ReadonlyArray<SynthColumn> =>
      replaced.has(column.name) ? (ownColumns.get(column.name) ?? []) : [column])
    return { rowCount: table.rowCount, columns: learned }
  }

  const reverse = (table: SynthTable): SynthTable => {
    const byName = new Map(table.columns.map((column) => [column.name, column]))
    const lookup: ColumnLookup = (name) => byName.get(name)!
    // In planning order: a transform reading a column another one replaced comes after it (planTransforms).
    for (const transform of transforms) {
      for (const restored of transform.reverse(lookup, table.rowCount)) byName.set(restored.name, restored)
    }
    return { rowCount: table.rowCount, columns: columns.map((name) => byName.get(name)!) }
  }

  return {
    forward,
    reverse,
    keepsColumn: (name) => !replaced.has(name),
    toJSON: () => ({ columns, transforms: transforms.map((transform) => transform.toJSON()) })
  }
}

/**
 * Which constraints transform, fitted on the learned table (its columns the constraints name; a constraint on a
 * column the learned table lacks, a faked identifier's uniqueness, is met after sampling). A column is replaced by
 * one transform at most, and a transform never replaces a column an earlier one reads (its reverse would read the
 * column before it is restored): a constraint that would is met by rejection alone. `unique` is always.
 */
export const fitConstraintTransforms = (constraints: ReadonlyArray<Constraint>, learned: SynthTable): ConstraintTransforms => {
  const byName = new Map(learned.columns.map((column) => [column.name, column]))
  const lookup: ColumnLookup = (name) => byName.get(name)!
  const taken = new Set(byName.keys())
  const replaced = new Set<string>()
  const read = new Set<string>()
  const transforms: Array<ColumnTransform> = []
  const add = (transform: ColumnTransform) => {
    transforms.push(transform)
    for (const name of transform.replaces) replaced.add(name)
    for (const name of transform.reads) read.add(name)
    for (const name of transform.produces) taken.add(name)
  }
  const free = (name: string) => byName.has(name) && !replaced.has(name) && !read.has(name)
  const units = (name: string, bound: number | string | null) => {
    const column = byName.get(name)!
    return bound === null || !isNumericType(column.type) ? null : valueInColumnUnits(column.type, bound)
  }

  for (const group of fixedCombinationGroups(constraints)) {
    if (group.every(free)) add(fitJointCategoryTransform(group, lookup, taken))
  }
  for (const constraint of constraints) {
    switch (constraint.type) {
      case "inequality":
        if (byName.has(constraint.low) && free(constraint.high)) add(fitInequalityTransform(constraint, lookup, taken))
        break
      case "range":
        if (free(constraint.column)) {
          const bounds = { min: units(constraint.column, constraint.min), max: units(constraint.column, constraint.max) }
          add(fitRangeTransform({ column: constraint.column, strict: constraint.strict, ...bounds }, lookup, taken))
        }
        break
      case "positive":
        if (free(constraint.column)) add(fitRangeTransform({ column: constraint.column, min: 0, max: null, strict: constraint.strict }, lookup, taken))
        break
      case "fixed_combinations":
      case "unique":
        break
    }
  }
  return tableTransforms(learned.columns.map((column) => column.name), transforms)
}

const transformFromJSON = (json: Readonly<Record<string, unknown>>): ColumnTransform => {
  switch (json["kind"]) {
    case "inequality":
      return inequalityTransformFromJSON(json)
    case "range":
      return rangeTransformFromJSON(json)
    case "fixed_combinations":
      return jointCategoryTransformFromJSON(json)
    default:
      throw new StoredTransformError(`its kind ${JSON.stringify(json["kind"])} is not one this version knows`)
  }
}

/** Stored transforms back (toJSON's output); a message when the JSON is not theirs. */
export const constraintTransformsFromJSON = (json: unknown): ConstraintTransforms | { readonly error: string } => {
  const stored = json as Partial<TransformsJson> | null
  if (typeof stored !== "object" || stored === null || !Array.isArray(stored.columns) || !Array.isArray(stored.transforms)) {
    return { error: "the constraint transforms are not a list of columns and transforms" }
  }
  try {
    return tableTransforms(stored.columns, stored.transforms.map((transform, index) => {
      if (typeof transform !== "object" || transform === null) throw new StoredTransformError("it is not an object")
      try {
        return transformFromJSON(transform as Readonly<Record<string, unknown>>)
      } catch (error) {
        if (error instanceof StoredTransformError) throw new StoredTransformError(`transform ${index}: ${error.message}`)
        throw error
      }
    }))
  } catch (error) {
    if (error instanceof StoredTransformError) return { error: `a constraint transform cannot be read: ${error.message}` }
    throw error
  }
}
