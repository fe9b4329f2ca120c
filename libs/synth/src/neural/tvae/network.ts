/**
 * TVAE's two networks, shaped as SDV's (sdv-dev/CTGAN `ctgan/synthesizers/tvae.py`): the encoder is Linear+ReLU
 * layers then two heads, the mean and the log-variance of the embedding; the decoder is Linear+ReLU layers then a
 * linear output as wide as an encoded row, plus one learned spread σ per output (SDV's `Decoder.sigma`).
 */
import * as tf from "@tensorflow/tfjs"
import type { Random } from "../../random.ts"
import { applyDense, type Dense, denseVariables, makeDense } from "../tf/dense.ts"

export interface Encoder {
  readonly hidden: ReadonlyArray<Dense>
  readonly mean: Dense
  readonly logVariance: Dense
}

export interface Decoder {
  readonly hidden: ReadonlyArray<Dense>
  readonly output: Dense
  /** Per output, the spread of the value around the decoded one; only the tanh (value) outputs use theirs. */
  readonly sigma: tf.Variable<tf.Rank.R1>
}

/** SDV starts every σ at 0.1 and clamps it to [0.01, 1] after each optimiser step. */
export const SIGMA_START = 0.1
export const SIGMA_MIN = 0.01
export const SIGMA_MAX = 1

/** Dense layers from `inputs` through each of `sizes`, each the input of the next. */
const makeStack = (inputs: number, sizes: ReadonlyArray<number>, random: Random): ReadonlyArray<Dense> => {
  const layers: Array<Dense> = []
  let width = inputs
  for (const size of sizes) {
    layers.push(makeDense(width, size, random))
    width = size
  }
  return layers
}

const lastWidth = (inputs: number, sizes: ReadonlyArray<number>) => sizes.at(-1) ?? inputs

const applyStack = (layers: ReadonlyArray<Dense>, x: tf.Tensor2D): tf.Tensor2D =>
  layers.reduce((input, layer) => tf.relu(applyDense(layer, input)), x)

export const makeEncoder = (dataWidth: number, compressDims: ReadonlyArray<number>, embeddingDim: number, random: Random): Encoder => {
  const hidden = makeStack(dataWidth, compressDims, random)
  const featureWidth = lastWidth(dataWidth, compressDims)
  return {
    hidden,
    mean: makeDense(featureWidth, embeddingDim, random),
    logVariance: makeDense(featureWidth, embeddingDim, random)
  }
}

export const makeDecoder = (embeddingDim: number, decompressDims: ReadonlyArray<number>, dataWidth: number, random: Random): Decoder => {
  const hidden = makeStack(embeddingDim, decompressDims, random)
  return {
    hidden,
    output: makeDense(lastWidth(embeddingDim, decompressDims), dataWidth, random),
    sigma: tf.variable(tf.fill([dataWidth], SIGMA_START))
  }
}

export const applyEncoder = (encoder: Encoder, x: tf.Tensor2D): { readonly mean: tf.Tensor2D; readonly logVariance: tf.Tensor2D } => {
  const feature = applyStack(encoder.hidden, x)
  return { mean: applyDense(encoder.mean, feature), logVariance: applyDense(encoder.logVariance, feature) }
}

/** The decoder's raw output (no activation: the loss and the sampler apply their own per span). */
export const applyDecoder = (decoder: Decoder, z: tf.Tensor2D): tf.Tensor2D => applyDense(decoder.output, applyStack(decoder.hidden, z))

export const encoderVariables = (encoder: Encoder): ReadonlyArray<tf.Variable> => [
  ...encoder.hidden.flatMap(denseVariables),
  ...denseVariables(encoder.mean),
  ...denseVariables(encoder.logVariance)
]

export const decoderVariables = (decoder: Decoder): ReadonlyArray<tf.Variable> => [
  ...decoder.hidden.flatMap(denseVariables),
  ...denseVariables(decoder.output),
  decoder.sigma
]
