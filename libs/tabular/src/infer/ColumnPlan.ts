import type { ColumnSchema } from "./ColumnSchema.ts"
import type { NumberConvention } from "./numberText.ts"

/** How pass 2 turns a column's cells into values: the resolved type and whatever it takes to read the cells. */
export type ColumnConversion =
  | { readonly type: "boolean" }
  | { readonly type: "integer"; readonly convention: NumberConvention; readonly storage: "int32" | "float64" }
  | { readonly type: "float"; readonly convention: NumberConvention }
  | { readonly type: "date"; readonly dayFirst: boolean }
  | { readonly type: "datetime"; readonly dayFirst: boolean }
  | { readonly type: "string" }

export interface ColumnPlan {
  readonly schema: ColumnSchema
  readonly conversion: ColumnConversion
  /** Cells whose written form the conversion changes (separators, date order, boolean spelling). */
  readonly standardisedValues: number
  /** How the file wrote the column, as field metadata (form/formKeys.ts), for writing it back the same way. */
  readonly form: ReadonlyArray<readonly [string, string]>
}
