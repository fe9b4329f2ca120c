import { Schema } from "effect"

/**
 * What every stored model keeps of a numeric, date or datetime column to restore it: its name, type and source
 * format, its observed range and how its values were rounded (rounding.ts). Shared by the copula's and the table
 * transformer's artifacts.
 */
export const continuousColumnFields = {
  kind: Schema.Literal("continuous"),
  name: Schema.String,
  type: Schema.Literals(["integer", "float", "date", "datetime"]),
  sourceFormat: Schema.NullOr(Schema.String),
  min: Schema.Number,
  max: Schema.Number,
  rounding: Schema.NullOr(Schema.Union([Schema.Struct({ decimals: Schema.Int }), Schema.Struct({ step: Schema.Number })]))
}
