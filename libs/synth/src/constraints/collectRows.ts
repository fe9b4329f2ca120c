import type { CategoricalColumn, ContinuousColumn, SynthColumn, SynthTable } from "../table.ts"

/**
 * Chosen rows of several batches as one table, in the order they were added. Batches are a model's draws with the
 * same columns; their category lists may differ (each decoder lists what it drew), so categories go by label.
 */
export interface RowCollector {
  readonly add: (batch: SynthTable, rows: Int32Array) => void
  readonly rowCount: () => number
  readonly finish: () => SynthTable
}

interface Buffer {
  readonly add: (column: SynthColumn, rows: Int32Array, at: number) => void
  readonly finish: (rowCount: number) => SynthColumn
}

const categoricalBuffer = (first: CategoricalColumn, capacity: number): Buffer => {
  const categories: Array<string> = []
  const codeOf = new Map<string, number>()
  const codes = new Int32Array(capacity)
  return {
    add: (column, rows, at) => {
      const source = column as CategoricalColumn
      const mapped = source.categories.map((label) => {
        let code = codeOf.get(label)
        if (code === undefined) codeOf.set(label, (code = categories.push(label) - 1))
        return code
      })
      rows.forEach((row, index) => {
        const code = source.codes[row]!
        codes[at + index] = code < 0 ? -1 : mapped[code]!
      })
    },
    // Booleans keep their fixed list; a string column lists what its rows hold, in the order first drawn.
    finish: (rowCount) => ({ ...first, categories: first.type === "boolean" ? first.categories : categories, codes: codes.slice(0, rowCount) })
  }
}

const continuousBuffer = (first: ContinuousColumn, capacity: number): Buffer => {
  const values = new Float64Array(capacity)
  const missing = new Uint8Array(capacity)
  return {
    add: (column, rows, at) => {
      const source = column as ContinuousColumn
      rows.forEach((row, index) => {
        values[at + index] = source.values[row]!
        missing[at + index] = source.missing?.[row] ?? 0
      })
    },
    finish: (rowCount) => {
      const written = missing.slice(0, rowCount)
      return { ...first, values: values.slice(0, rowCount), missing: written.includes(1) ? written : null }
    }
  }
}

/** Holds at most `capacity` rows; the first batch gives the columns (names, types, formats). */
export const collectRows = (capacity: number): RowCollector => {
  let buffers: Array<Buffer> | null = null
  let template: SynthTable | null = null
  let count = 0
  return {
    add: (batch, rows) => {
      template ??= batch
      buffers ??= batch.columns.map((column) =>
        column.kind === "categorical" ? categoricalBuffer(column, capacity) : continuousBuffer(column, capacity))
      const fitting = rows.subarray(0, capacity - count)
      batch.columns.forEach((column, index) => buffers![index]!.add(column, fitting, count))
      count += fitting.length
    },
    rowCount: () => count,
    finish: () => {
      if (template === null || buffers === null) return { rowCount: 0, columns: [] }
      const columns = buffers.map((buffer) => buffer.finish(count))
      return template.form === undefined ? { rowCount: count, columns } : { rowCount: count, columns, form: template.form }
    }
  }
}
