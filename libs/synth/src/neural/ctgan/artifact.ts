import { Data, Result, Schema } from "effect"
import { Release } from "../../privacy/ledger.ts"
import { tableTransformerFromJSON, TransformerArtifact } from "../../transform/index.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { conditionSpaceOf } from "./conditions.ts"
import { type CtganModel, ctganModelOf } from "./CtganModel.ts"
import { generatorFromJSON } from "./generator.ts"

const Size = Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0)))

const DenseJson = Schema.Struct({ inputs: Size, outputs: Size, weight: Schema.String, bias: Schema.String })

const Loss = Schema.NullOr(Schema.Number)

/**
 * A trained CTGAN or DP-CTGAN as stored (plain JSON): the transformer, the category counts the conditional vectors
 * are drawn by (CTGAN: the real ones; DP-CTGAN: the released noisy ones), the generator's weights (float32, base64)
 * and what training recorded (DP-CTGAN: what it spent and the ledger of its releases). The discriminator is
 * not kept: sampling never uses it. Versioned: a later change of shape adds a version and reads this one.
 */
export const CtganArtifact = Schema.Struct({
  format: Schema.Literal("synth.ctgan"),
  version: Schema.Literal(1),
  transformer: TransformerArtifact,
  embeddingDim: Size,
  batchSize: Size,
  conditionCounts: Schema.Array(Schema.Array(Schema.Number.check(Schema.isGreaterThanOrEqualTo(0)))),
  generator: Schema.Struct({
    residuals: Schema.Array(Schema.Struct({ dense: DenseJson, scale: Schema.String, shift: Schema.String })),
    output: DenseJson
  }),
  lossHistory: Schema.Array(Schema.Struct({ epoch: Size, generator: Loss, discriminator: Loss })),
  privacy: Schema.NullOr(
    Schema.Struct({
      epsilonSpent: Schema.Number.check(Schema.isGreaterThanOrEqualTo(0)),
      delta: Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
      noiseMultiplier: Schema.Number.check(Schema.isGreaterThan(0)),
      maxGradNorm: Schema.Number.check(Schema.isGreaterThan(0)),
      steps: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0))),
      targetEpsilon: Schema.Number.check(Schema.isGreaterThan(0)),
      stoppedEarly: Schema.Boolean,
      // Since the preprocessing is accounted (absent from older artifacts, whose ε covered DP-SGD only).
      budget: Schema.optional(Schema.Struct({ preprocessing: Schema.Number.check(Schema.isGreaterThanOrEqualTo(0)), training: Schema.Number.check(Schema.isGreaterThanOrEqualTo(0)) })),
      releases: Schema.optional(Schema.Array(Release))
    })
  )
})
export type CtganArtifact = typeof CtganArtifact.Type

export class CtganArtifactError extends Data.TaggedError("CtganArtifactError")<{ readonly message: string }> {}

const fail = (message: string) => Result.fail(new CtganArtifactError({ message }))

/** Whether the generator's layer shapes chain from its input (noise + conditional vector) to the encoded width. */
const shapeProblem = (artifact: CtganArtifact, conditionWidth: number, encodedWidth: number): string | null => {
  let width = artifact.embeddingDim + conditionWidth
  for (const [layer, { dense }] of artifact.generator.residuals.entries()) {
    if (dense.inputs !== width) return `generator layer ${layer} takes ${dense.inputs} inputs, expected ${width}`
    width += dense.outputs
  }
  const { inputs, outputs } = artifact.generator.output
  if (inputs !== width) return `the generator's output layer takes ${inputs} inputs, expected ${width}`
  return outputs === encodedWidth ? null : `the generator writes ${outputs} values per row, the transformer reads ${encodedWidth}`
}

/** A stored model back, sampling exactly what the trained one did for the same seed; or why it is not one. */
export const ctganFromJSON = async (json: unknown): Promise<Result.Result<CtganModel, CtganArtifactError>> => {
  await startWasmBackend()
  const decoded = Schema.decodeUnknownResult(CtganArtifact)(json)
  if (Result.isFailure(decoded)) return fail(decoded.failure.message)
  const artifact = decoded.success
  const transformer = tableTransformerFromJSON(artifact.transformer)
  if (Result.isFailure(transformer)) return fail(`transformer: ${transformer.failure.message}`)
  const space = conditionSpaceOf(transformer.success)
  const counts = artifact.conditionCounts
  if (counts.length !== space.columns.length || space.columns.some(({ width }, c) => counts[c]!.length !== width)) {
    return fail("the condition counts do not match the transformer's categorical columns")
  }
  if (counts.some((column) => !column.some((count) => count > 0))) return fail("a categorical column without any counted category")
  const problem = shapeProblem(artifact, space.width, transformer.success.width)
  if (problem !== null) return fail(problem)
  return Result.try({
    try: () =>
      ctganModelOf({
        transformer: transformer.success,
        space,
        conditionCounts: counts,
        generator: generatorFromJSON(artifact.generator),
        embeddingDim: artifact.embeddingDim,
        batchSize: artifact.batchSize,
        lossHistory: artifact.lossHistory.map(({ discriminator, epoch, generator }) => ({
          epoch,
          generator: generator ?? NaN,
          discriminator: discriminator ?? NaN
        })),
        privacy: artifact.privacy === null
          ? null
          : { ...artifact.privacy, budget: artifact.privacy.budget ?? null, releases: artifact.privacy.releases ?? null }
      }),
    catch: (error) => new CtganArtifactError({ message: `generator weights: ${error instanceof Error ? error.message : String(error)}` })
  })
}
