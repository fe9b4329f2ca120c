import { TabularError } from "../../TabularError.ts"
import type { Cell } from "../RecordStream.ts"

/** Joins the keys of a nested path in the map of paths: it cannot occur in a key that people write. */
const PATH_SEPARATOR = "\u0000"

/**
 * Columns of JSON rows: the union of their keys in order of first appearance, nested objects flattened into dotted
 * names (`{"a":{"b":1}}` is column `a.b`), arrays kept as their JSON text. Columns are found by key path, not by
 * dotted name, so that a literal key "a.b" and a nested a → b are told apart and reported instead of merged.
 * Names are built (keys trimmed, blanks rejected) only when a column is first seen, off the per-row path.
 */
export class FlatColumns {
  readonly names: Array<string> = []
  /** Per column, where it came from and what its values were, for rebuilding the JSON on download. */
  readonly shapes: Array<ColumnShape> = []
  readonly #indexByPath = new Map<string, number>()
  readonly #pathByName = new Map<string, string>()
  readonly #cellIndexes: Array<number> = []
  readonly #cellValues: Array<Cell> = []

  /** The object as a row aligned to `names` (which it may extend); keys it lacks are null, or missing at the end. */
  toRow(object: Record<string, unknown>): Array<Cell> {
    const indexes = this.#cellIndexes
    const values = this.#cellValues
    indexes.length = 0
    values.length = 0
    this.#collect(object, null)
    let width = 0
    for (const index of indexes) if (index >= width) width = index + 1
    const row: Array<Cell> = []
    for (let i = 0; i < width; i++) row.push(null)
    for (let i = 0; i < indexes.length; i++) row[indexes[i]!] = values[i]!
    return row
  }

  #collect(object: Record<string, unknown>, parentPath: string | null): void {
    for (const key in object) {
      const value = object[key]
      const path = parentPath === null ? key : parentPath + PATH_SEPARATOR + key
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        this.#collect(value as Record<string, unknown>, path)
        continue
      }
      const index = this.#indexOf(path)
      if (Array.isArray(value)) this.shapes[index]!.arrays++
      else if (value !== null && value !== undefined) this.shapes[index]!.others++
      this.#cellIndexes.push(index)
      this.#cellValues.push(toCell(value))
    }
  }

  #indexOf(path: string): number {
    const known = this.#indexByPath.get(path)
    if (known !== undefined) return known
    const keys = path.split(PATH_SEPARATOR).map((key) => key.trim())
    const name = keys.join(".")
    if (keys.includes("")) {
      throw new TabularError({
        reason: "invalid_columns",
        message: `A JSON key is blank (in the column "${name}"); give every key a name.`
      })
    }
    if (this.#pathByName.has(name)) {
      throw new TabularError({
        reason: "invalid_columns",
        message: `Two different keys both become the column "${name}" (a key containing a dot and a nested ` +
          "object, or keys that differ only in surrounding spaces); rename one of them."
      })
    }
    const index = this.names.length
    this.names.push(name)
    this.shapes.push({ path: keys, arrays: 0, others: 0 })
    this.#indexByPath.set(path, index)
    this.#pathByName.set(name, path)
    return index
  }
}

/** The keys leading to a column (one key for a top-level one) and how many of its values were arrays or other values. */
export interface ColumnShape {
  readonly path: ReadonlyArray<string>
  arrays: number
  others: number
}

const toCell = (value: unknown): Cell => {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return value
    default:
      return value === null || value === undefined ? null : JSON.stringify(value)
  }
}
