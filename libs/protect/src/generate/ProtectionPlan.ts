import { ColumnHandling, ColumnRole, ColumnType, ProtectionSettings } from "@synth/contracts"
import { Schema } from "effect"
import { KeyedBloomJson } from "../keyedBloom.ts"

/**
 * The protections a generator applies, as its stored model keeps them: every later sample of the model is protected
 * exactly as the first. Names, roles, formats, bounds (values the value protection may publish) and fake-value plans
 * (shapes and mixes held by at least k rows); never a row.
 */
export const defaultProtectionSettings: typeof ProtectionSettings.Type = {
  rareCategoryThreshold: 5,
  valueProtection: true,
  rareCategoryProtection: true,
  similarityFilter: true,
  holdoutShare: 0.1
}

export const PlannedColumn = Schema.Struct({
  name: Schema.String,
  type: ColumnType,
  role: ColumnRole,
  handling: ColumnHandling,
  piiType: Schema.NullOr(Schema.String),
  handlingSource: Schema.Literals(["request", "default"]),
  /** How the source wrote a date or datetime column (kept for faked birth dates). */
  sourceFormat: Schema.NullOr(Schema.String)
})
export type PlannedColumn = typeof PlannedColumn.Type

/** How the source file wrote its columns (SynthTable's `form`): spellings and layouts, never values. */
const SourceForm = Schema.Struct({
  table: Schema.Record(Schema.String, Schema.String),
  columns: Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.String))
})

export const ProtectionPlan = Schema.Struct({
  settings: ProtectionSettings,
  /** dp-ctgan: the value and rare-category protections are the DP preprocessing's (under ε), not these. */
  differentiallyPrivate: Schema.Boolean,
  columns: Schema.Array(PlannedColumn),
  /** Value protection's range per learned number, date and datetime column; every output value lies inside. */
  bounds: Schema.Array(Schema.Struct({ column: Schema.String, low: Schema.Number, high: Schema.Number })),
  /** The fake-value plan of each faked column (libs/protect/src/fake). */
  fakes: Schema.Array(Schema.Struct({ column: Schema.String, plan: Schema.Unknown })),
  /** The key of the `hash` handling's pseudonyms; null when no column is hashed. */
  hashKey: Schema.NullOr(Schema.String),
  /** The holdout's draw (holdoutRows: the share, its bound and the generator's seed); no count of the data. */
  holdout: Schema.Struct({ share: Schema.Number, maxRows: Schema.Int }),
  /**
   * The source's form, given to every sample so that it downloads written as the source was. Absent in plans stored
   * before it was kept: their samples carry the date formats of `columns` only.
   */
  sourceForm: Schema.optional(SourceForm)
})
export type ProtectionPlan = typeof ProtectionPlan.Type

/**
 * What the service keeps beside a model to check its output against the real data without storing the data: the
 * real rows (learned columns) and each faked column's real values, as keyed Bloom filters. Not part of the model.
 */
export const ProtectionFilters = Schema.Struct({
  rows: Schema.NullOr(KeyedBloomJson),
  values: Schema.Array(Schema.Struct({ column: Schema.String, filter: KeyedBloomJson }))
})
export type ProtectionFilters = typeof ProtectionFilters.Type

/** The stored artifact of a protected generator: the plan around the trained model's own artifact (null: nothing learned). */
export const ProtectedArtifact = Schema.Struct({
  format: Schema.Literal("synth.protected"),
  formatVersion: Schema.Literal(1),
  plan: ProtectionPlan,
  model: Schema.Unknown
})
export type ProtectedArtifact = typeof ProtectedArtifact.Type
