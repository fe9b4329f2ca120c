import { Data, Result, Schema } from "effect"
import { continuousColumnFields } from "../columnSchema.ts"
import type { ColumnSpec } from "./tableTransformer.ts"

const Numbers = Schema.Array(Schema.Number)

const ContinuousSpecJson = Schema.Struct({
  ...continuousColumnFields,
  fill: Schema.Number,
  hasMissing: Schema.Boolean,
  modes: Schema.Struct({ weights: Numbers, means: Numbers, stds: Numbers, logWeights: Numbers, logScale: Numbers })
})

const CategoricalSpecJson = Schema.Struct({
  kind: Schema.Literal("categorical"),
  name: Schema.String,
  type: Schema.Literals(["string", "boolean"]),
  categories: Schema.Array(Schema.String),
  slotCategories: Schema.Array(Schema.Int),
  other: Schema.Struct({ categories: Schema.Array(Schema.Int), counts: Numbers }),
  hasMissing: Schema.Boolean
})

/** A fitted transformer as stored inside a model artifact (plain JSON). Versioned like the models. */
export const TransformerArtifact = Schema.Struct({
  format: Schema.Literal("synth.table-transformer"),
  version: Schema.Literal(1),
  columns: Schema.Array(Schema.Union([ContinuousSpecJson, CategoricalSpecJson]))
})
export type TransformerArtifact = typeof TransformerArtifact.Type

export class TransformerArtifactError extends Data.TaggedError("TransformerArtifactError")<{ readonly message: string }> {}

export const transformerArtifactOf = (specs: ReadonlyArray<ColumnSpec>): TransformerArtifact => ({
  format: "synth.table-transformer",
  version: 1,
  columns: specs
})

/**
 * The specs in a stored artifact, checked for shape and for consistency (every index in range, one mode at least,
 * positive spreads), so a corrupted artifact is refused here rather than decoding nonsense later.
 */
export const specsFromArtifact = (artifact: unknown): Result.Result<ReadonlyArray<ColumnSpec>, TransformerArtifactError> =>
  Schema.decodeUnknownResult(TransformerArtifact)(artifact).pipe(
    Result.mapError((error) => new TransformerArtifactError({ message: `not a table transformer artifact: ${error.message}` })),
    Result.flatMap(({ columns }) => {
      const problem = columns.map(inconsistency).find((found) => found !== null)
      return problem === undefined ? Result.succeed(columns) : Result.fail(new TransformerArtifactError({ message: problem }))
    })
  )

const inconsistency = (spec: ColumnSpec): string | null => {
  if (spec.kind === "continuous") {
    const { means, stds, weights, logWeights, logScale } = spec.modes
    const modes = means.length
    if (modes === 0) return `column ${spec.name}: no modes`
    if ([stds, weights, logWeights, logScale].some((list) => list.length !== modes)) return `column ${spec.name}: mode lists of different lengths`
    if (stds.some((std) => !(std > 0))) return `column ${spec.name}: a mode without a positive spread`
    return spec.min <= spec.max ? null : `column ${spec.name}: min above max`
  }
  const inRange = (index: number) => index >= 0 && index < spec.categories.length
  if (!spec.slotCategories.every(inRange) || !spec.other.categories.every(inRange)) return `column ${spec.name}: a category index out of range`
  if (spec.other.counts.length !== spec.other.categories.length) return `column ${spec.name}: other counts and categories differ in length`
  if (spec.slotCategories.length + spec.other.categories.length + (spec.hasMissing ? 1 : 0) === 0) return `column ${spec.name}: no slots`
  return null
}
