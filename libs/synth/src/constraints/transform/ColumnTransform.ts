import type { SynthColumn } from "../../table.ts"

/**
 * How a constraint is met exactly rather than by rejection (SDV's reversible constraints): the table a model learns
 * holds a representation in which every value obeys the constraint (the log of high − low, a logit between bounds, the
 * joint category of a fixed combination), and the model's rows are turned back into the original columns.
 */
export interface ColumnTransform {
  /** The columns of the learned table it replaces; its own columns take the place of the first of them. */
  readonly replaces: ReadonlyArray<string>
  /** The names of its own columns (in the table the model learns). */
  readonly produces: ReadonlyArray<string>
  /** Other columns its reverse reads (restored first when another transform replaced them). */
  readonly reads: ReadonlyArray<string>
  /** Its columns, computed from the learned table's original columns. */
  readonly forward: (column: ColumnLookup, rowCount: number) => ReadonlyArray<SynthColumn>
  /** The replaced columns, from its own columns in a model's rows and the (restored) columns it reads. */
  readonly reverse: (column: ColumnLookup, rowCount: number) => ReadonlyArray<SynthColumn>
  readonly toJSON: () => TransformJson
}

export type ColumnLookup = (name: string) => SynthColumn

/** A transform as stored in the model artifact: its kind and the parameters it was fitted with (no value of the data). */
export interface TransformJson {
  readonly kind: string
  readonly [parameter: string]: unknown
}

/** A name for a new column that no column of the table has. */
export const freshName = (base: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(base)) return base
  for (let suffix = 2; ; suffix++) if (!taken.has(`${base} (${suffix})`)) return `${base} (${suffix})`
}
