import type { CategoricalColumn, SynthColumn } from "../../table.ts"
import { type ColumnLookup, type ColumnTransform, freshName } from "./ColumnTransform.ts"
import { StoredTransformError, text } from "./storedFields.ts"

/**
 * Fixed combinations met by construction, as SDV's FixedCombinations: the model learns one categorical column whose
 * categories are the combinations that occur in the learned table (missing values included), so it can only draw
 * those, and each drawn combination is split back into its columns. The combination labels are JSON arrays of the
 * columns' labels (null for missing): unambiguous whatever the labels hold.
 */
interface JointParameters {
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: CategoricalColumn["type"] }>
  /** The learned column. */
  readonly joint: string
}

const asCategorical = (column: SynthColumn): CategoricalColumn => {
  if (column.kind !== "categorical") throw new TypeError(`${column.name} is not a string or boolean column`)
  return column
}

const jointCategoryTransform = (parameters: JointParameters): ColumnTransform => {
  const names = parameters.columns.map((column) => column.name)

  const forward = (column: ColumnLookup, rowCount: number): ReadonlyArray<SynthColumn> => {
    const sources = names.map((name) => asCategorical(column(name)))
    const codeOf = new Map<string, number>()
    const codes = new Int32Array(rowCount)
    for (let row = 0; row < rowCount; row++) {
      const label = JSON.stringify(sources.map((source) => (source.codes[row]! < 0 ? null : source.categories[source.codes[row]!]!)))
      let code = codeOf.get(label)
      if (code === undefined) codeOf.set(label, (code = codeOf.size))
      codes[row] = code
    }
    return [{ kind: "categorical", name: parameters.joint, type: "string", categories: [...codeOf.keys()], codes }]
  }

  const reverse = (column: ColumnLookup): ReadonlyArray<SynthColumn> => {
    const joint = asCategorical(column(parameters.joint))
    const parts = joint.categories.map((label) => JSON.parse(label) as ReadonlyArray<string | null>)
    return parameters.columns.map(({ name, type }, index): CategoricalColumn => {
      // Booleans keep their fixed labels; a string column lists the labels its combinations hold, in their order.
      const categories = type === "boolean" ? ["false", "true"] : [...new Set(parts.flatMap((part) => (part[index] == null ? [] : [part[index]])))]
      const codeOf = new Map(categories.map((label, code) => [label, code]))
      const codeByJoint = parts.map((part) => (part[index] == null ? -1 : codeOf.get(part[index])!))
      return { kind: "categorical", name, type, categories, codes: joint.codes.map((code) => (code < 0 ? -1 : codeByJoint[code]!)) }
    })
  }

  return { replaces: names, produces: [parameters.joint], reads: [], forward, reverse, toJSON: () => ({ kind: "fixed_combinations", ...parameters }) }
}

export const fitJointCategoryTransform = (columns: ReadonlyArray<string>, column: ColumnLookup, taken: ReadonlySet<string>): ColumnTransform =>
  jointCategoryTransform({
    columns: columns.map((name) => ({ name, type: asCategorical(column(name)).type })),
    joint: freshName(columns.join(" & "), taken)
  })

export const jointCategoryTransformFromJSON = (json: Readonly<Record<string, unknown>>): ColumnTransform => {
  const columns = json["columns"]
  if (!Array.isArray(columns)) throw new StoredTransformError("its columns are not a list")
  return jointCategoryTransform({
    columns: columns.map((entry: Readonly<Record<string, unknown>>) => {
      const type = entry["type"]
      if (type !== "string" && type !== "boolean") throw new StoredTransformError("a column's type is not string or boolean")
      return { name: text(entry, "name"), type }
    }),
    joint: text(json, "joint")
  })
}
