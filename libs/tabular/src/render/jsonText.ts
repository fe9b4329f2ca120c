import type { RecordBatch, Schema } from "apache-arrow"
import { fieldForm } from "../form/fieldForm.ts"
import { type CellJson, cellJson, type ValueForm } from "./cellWriters.ts"

/** One key of a row object: a column's value, or an object rebuilt from columns flattened out of it. */
interface KeyNode {
  readonly key: string
  readonly column: number | null
  readonly children: Array<KeyNode>
}

/**
 * The keys of the row objects: columns flattened from nested objects at ingestion (their `synth.path`) go back
 * under their parent keys, in the order they first appear; any other column (a CSV column named `a.b` included) is
 * a key of its own. Should a path meet a key that is already a value, the column stays flat under its name.
 */
const keyTree = (schema: Schema): Array<KeyNode> => {
  const root: Array<KeyNode> = []
  schema.fields.forEach((field, column) => {
    const path = fieldForm(field).path ?? [field.name]
    let level = root
    for (const [depth, key] of path.entries()) {
      const last = depth === path.length - 1
      const existing = level.find((node) => node.key === key)
      if (last && existing === undefined) {
        level.push({ key, column, children: [] })
        return
      }
      if (last || (existing !== undefined && existing.column !== null)) break
      const parent = existing ?? { key, column: null, children: [] }
      if (existing === undefined) level.push(parent)
      level = parent.children
    }
    root.push({ key: field.name, column, children: [] })
  })
  return root
}

/** JSON objects of a table's rows, nested objects rebuilt; values as `cellJson` writes them. */
export class JsonRows {
  readonly #tree: Array<KeyNode>
  private readonly values: ValueForm

  constructor(schema: Schema, values: ValueForm) {
    this.values = values
    this.#tree = keyTree(schema)
  }

  /** Each row of the batch as the text of one JSON object. */
  rows(batch: RecordBatch): Array<string> {
    const cells = batch.schema.fields.map((field, column) => cellJson(field, batch.getChildAt(column)!.data[0]!, this.values))
    const write = objectWriter(this.#tree, cells)
    return Array.from({ length: batch.numRows }, (_, row) => write(row))
  }
}

const objectWriter = (nodes: ReadonlyArray<KeyNode>, cells: ReadonlyArray<CellJson>): ((row: number) => string) => {
  const members = nodes.map((node) => {
    const key = `${JSON.stringify(node.key)}:`
    const value = node.column !== null ? cells[node.column]! : objectWriter(node.children, cells)
    return { key, value }
  })
  // One array per object level, reused for every row and joined (see CsvText.batch: `+=` costs its garbage).
  const parts: Array<string> = new Array(members.length)
  return (row) => {
    for (let index = 0; index < members.length; index++) parts[index] = members[index]!.key + members[index]!.value(row)
    return `{${parts.join(",")}}`
  }
}
