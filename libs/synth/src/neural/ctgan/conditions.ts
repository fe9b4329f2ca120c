import type { Random } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import type { TableTransformer } from "../../transform/index.ts"

/**
 * CTGAN's conditional vector (Xu et al. 2019, section 4.3; ctgan/data_sampler.py): one slot per category of every
 * discrete column (here: every categorical column's one-hot span, its "other" and "missing" slots included), one of
 * them set per row. It says which category of which column the generator must produce.
 */
export interface DiscreteColumn {
  /** The table column. */
  readonly column: number
  /** Where its one-hot span sits in an encoded row. */
  readonly offset: number
  readonly width: number
  /** Where its slots sit in the conditional vector. */
  readonly conditionOffset: number
}

export interface ConditionSpace {
  readonly columns: ReadonlyArray<DiscreteColumn>
  /** Slots in the conditional vector (0 when the table has no categorical column). */
  readonly width: number
}

export const conditionSpaceOf = (transformer: TableTransformer): ConditionSpace => {
  const columns: Array<DiscreteColumn> = []
  let width = 0
  for (const span of transformer.spans) {
    if (span.role !== "category") continue
    columns.push({ column: span.column, offset: span.offset, width: span.width, conditionOffset: width })
    width += span.width
  }
  return { columns, width }
}

/** A drawn condition per row: which discrete column (index into ConditionSpace.columns) and which of its slots. */
export interface Conditions {
  readonly columns: Int32Array
  readonly slots: Int32Array
}

/** The conditional vectors of `conditions`, row-major (rows × space.width). */
export const conditionVectors = (space: ConditionSpace, conditions: Conditions): Float32Array => {
  const rows = conditions.columns.length
  const vectors = new Float32Array(rows * space.width)
  if (space.width === 0) return vectors
  for (let i = 0; i < rows; i++) {
    const column = space.columns[conditions.columns[i]!]!
    vectors[i * space.width + column.conditionOffset + conditions.slots[i]!] = 1
  }
  return vectors
}

/**
 * Draws a slot of each discrete column by fixed weights: CTGAN picks the column uniformly, then a category by its
 * (log-)frequency. `weights[c]` holds column c's weight per slot; a zero weight is never drawn.
 */
export interface ConditionDraw {
  readonly draw: (rows: number, random: Random) => Conditions
}

export const conditionDraw = (weights: ReadonlyArray<ArrayLike<number>>): ConditionDraw => {
  const cumulative = weights.map((column) => {
    const running = new Float64Array(column.length)
    let total = 0
    for (let k = 0; k < column.length; k++) running[k] = total += column[k]!
    return running
  })
  const drawSlot = (running: Float64Array, random: Random) => {
    const target = random.next() * running[running.length - 1]!
    let low = 0
    let high = running.length - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if (running[middle]! > target) high = middle
      else low = middle + 1
    }
    return low
  }
  const draw = (rows: number, random: Random): Conditions => {
    const columns = new Int32Array(rows)
    const slots = new Int32Array(rows)
    // A table without categorical columns has no conditions: the arrays stay unread (the vectors have no slots).
    if (cumulative.length === 0) return { columns, slots }
    for (let i = 0; i < rows; i++) {
      const column = random.integer(cumulative.length)
      columns[i] = column
      slots[i] = drawSlot(cumulative[column]!, random)
    }
    return { columns, slots }
  }
  return { draw }
}

/** Training-by-sampling's weights: log(1 + count), so rare categories are conditioned on more often than they occur. */
export const logFrequencies = (counts: ReadonlyArray<ArrayLike<number>>): ReadonlyArray<Float64Array> =>
  counts.map((column) => Float64Array.from(column, (count) => Math.log(count + 1)))

/** Per discrete column, the rows grouped by their slot (CSR: slot s holds rows[starts[s]] … rows[starts[s + 1] − 1]). */
export interface RowsBySlot {
  readonly starts: Int32Array
  readonly rows: Int32Array
}

/** What training needs of the real rows' categories: each row's slot per discrete column, the counts, the groups. */
export interface CategoryIndex {
  /** slotsOf[c][row]: the row's slot in discrete column c. */
  readonly slotsOf: ReadonlyArray<Int32Array>
  /** counts[c][s]: how many rows have slot s in discrete column c. */
  readonly counts: ReadonlyArray<Float64Array>
  readonly rowsBySlot: ReadonlyArray<RowsBySlot>
}

export const categoryIndexOf = (transformer: TableTransformer, table: SynthTable, space: ConditionSpace): CategoryIndex => {
  const slotsOf = space.columns.map(({ column }) => transformer.categorySlots(table, column))
  const counts = space.columns.map(({ width }, c) => {
    const count = new Float64Array(width)
    for (const slot of slotsOf[c]!) count[slot]! += 1
    return count
  })
  const rowsBySlot = space.columns.map(({ width }, c) => {
    const starts = new Int32Array(width + 1)
    for (let s = 0; s < width; s++) starts[s + 1] = starts[s]! + counts[c]![s]!
    const filled = starts.slice(0, width)
    const rows = new Int32Array(table.rowCount)
    slotsOf[c]!.forEach((slot, row) => (rows[filled[slot]!++] = row))
    return { starts, rows }
  })
  return { slotsOf, counts, rowsBySlot }
}

/** A real row with the given slot in the given discrete column, uniformly among them (ctgan's sample_data). */
export const rowMatching = (index: CategoryIndex, column: number, slot: number, random: Random): number => {
  const { rows, starts } = index.rowsBySlot[column]!
  const start = starts[slot]!
  return rows[start + random.integer(starts[slot + 1]! - start)]!
}
