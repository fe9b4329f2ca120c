/**
 * The stored form of a trained TVAE: only what sampling needs, as SDV's `sample` uses only the decoder: the
 * transformer's artifact, the decoder's layers (float32 weights in base64) and its learned σ. Versioned: a later
 * change of shape adds a version and reads this one.
 */
import * as tf from "@tensorflow/tfjs"
import { Data, Result, Schema } from "effect"
import { TransformerArtifact, tableTransformerFromJSON } from "../../transform/index.ts"
import { denseFromJSON, type DenseJSON, denseToJSON, float32FromBase64, float32ToBase64 } from "../tf/dense.ts"
import { keepVariables } from "./keepVariables.ts"
import { type Decoder, SIGMA_MAX, SIGMA_MIN } from "./network.ts"
import type { TvaeParts } from "./parts.ts"

export const TVAE_FORMAT = "synth.tvae"
export const TVAE_FORMAT_VERSION = 1

const DenseJson = Schema.Struct({
  inputs: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  outputs: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  weight: Schema.String,
  bias: Schema.String
})

export const TvaeArtifact = Schema.Struct({
  format: Schema.Literal(TVAE_FORMAT),
  formatVersion: Schema.Literal(TVAE_FORMAT_VERSION),
  embeddingDim: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  /** Rows decoded per sampling batch (the training batch size). */
  batchSize: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  transformer: TransformerArtifact,
  decoder: Schema.Struct({
    hidden: Schema.Array(DenseJson),
    output: DenseJson,
    /** One learned spread per output, float32 base64. */
    sigma: Schema.String
  }),
  lossHistory: Schema.Array(Schema.Number)
})
export type TvaeArtifact = typeof TvaeArtifact.Type

export class TvaeArtifactError extends Data.TaggedError("TvaeArtifactError")<{ readonly message: string }> {}

export const tvaeArtifactOf = (parts: TvaeParts): TvaeArtifact => ({
  format: TVAE_FORMAT,
  formatVersion: TVAE_FORMAT_VERSION,
  embeddingDim: parts.embeddingDim,
  batchSize: parts.batchSize,
  transformer: parts.transformer.toJSON(),
  decoder: {
    hidden: parts.decoder.hidden.map(denseToJSON),
    output: denseToJSON(parts.decoder.output),
    sigma: float32ToBase64(parts.decoder.sigma.dataSync() as Float32Array)
  },
  lossHistory: [...parts.lossHistory]
})

/** Why the layers do not chain from the embedding to an encoded row, or null when they do. */
const shapeProblem = (artifact: TvaeArtifact, width: number): string | null => {
  const layers = [...artifact.decoder.hidden, artifact.decoder.output]
  let inputs = artifact.embeddingDim
  for (const [index, layer] of layers.entries()) {
    if (layer.inputs !== inputs) return `decoder layer ${index} takes ${layer.inputs} inputs; the previous layer gives ${inputs}`
    inputs = layer.outputs
  }
  return inputs === width ? null : `the decoder gives ${inputs} outputs; the transformer encodes rows of ${width}`
}

const finite = (values: Float32Array) => values.every(Number.isFinite)

/** Weights decoded, sized and finite, or why not (decoding throws on a wrong byte count). */
const decodeWeights = (artifact: TvaeArtifact, width: number): Result.Result<{ readonly sigma: Float32Array }, string> => {
  const layers: ReadonlyArray<DenseJSON> = [...artifact.decoder.hidden, artifact.decoder.output]
  try {
    for (const [index, layer] of layers.entries()) {
      const values = [float32FromBase64(layer.weight, layer.inputs * layer.outputs), float32FromBase64(layer.bias, layer.outputs)]
      if (!values.every(finite)) return Result.fail(`decoder layer ${index} holds a non-finite weight`)
    }
    const sigma = float32FromBase64(artifact.decoder.sigma, width)
    // Training clamps σ to this range (in float32, so compare with a float32 bound).
    if (!sigma.every((value) => value >= Math.fround(SIGMA_MIN) && value <= SIGMA_MAX)) {
      return Result.fail(`a σ outside [${SIGMA_MIN}, ${SIGMA_MAX}]`)
    }
    return Result.succeed({ sigma })
  } catch (error) {
    return Result.fail(`decoder weights: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * A stored artifact back as the parts of a model, checked for shape (schema, transformer, layer sizes, weight byte
 * counts, finite weights, σ in range) so that a corrupted artifact is refused here rather than sampling nonsense.
 * Call with the tfjs backend started: the weights become tensors.
 */
export const tvaePartsFromArtifact = (json: unknown): Result.Result<TvaeParts, TvaeArtifactError> => {
  const refuse = (message: string) => Result.fail(new TvaeArtifactError({ message }))
  const decoded = Schema.decodeUnknownResult(TvaeArtifact)(json)
  if (Result.isFailure(decoded)) return refuse(decoded.failure.message)
  const artifact = decoded.success
  const transformer = tableTransformerFromJSON(artifact.transformer)
  if (Result.isFailure(transformer)) return refuse(`transformer: ${transformer.failure.message}`)
  const problem = shapeProblem(artifact, transformer.success.width)
  if (problem !== null) return refuse(problem)
  const weights = decodeWeights(artifact, transformer.success.width)
  if (Result.isFailure(weights)) return refuse(weights.failure)
  const decoder = keepVariables((): Decoder => ({
    hidden: artifact.decoder.hidden.map(denseFromJSON),
    output: denseFromJSON(artifact.decoder.output),
    sigma: tf.variable(tf.tensor1d(weights.success.sigma))
  }))
  return Result.succeed({
    decoder,
    transformer: transformer.success,
    embeddingDim: artifact.embeddingDim,
    batchSize: artifact.batchSize,
    lossHistory: artifact.lossHistory
  })
}
