import type { ColumnModel } from "./columnModels.ts"

/** Which column a latent normal variable belongs to: its value, or (continuous columns with nulls) its null flag. */
export interface Latent {
  readonly column: number
  readonly role: "value" | "missing"
}

export interface CopulaModel {
  readonly trainedRows: number
  readonly fitRows: number
  readonly columns: ReadonlyArray<ColumnModel>
  readonly latents: ReadonlyArray<Latent>
  /** k×k row-major correlation of the latents, positive definite. */
  readonly correlation: Float64Array
  /** Its lower Cholesky factor. */
  readonly factor: Float64Array
}

/** The latents of a list of columns, in a fixed order (value before null flag), so an artifact need not store it. */
export const latentsOf = (columns: ReadonlyArray<ColumnModel>): Array<Latent> =>
  columns.flatMap((column, index): Array<Latent> =>
    column.kind === "continuous" && column.missing !== null
      ? [{ column: index, role: "value" }, { column: index, role: "missing" }]
      : [{ column: index, role: "value" }]
  )
