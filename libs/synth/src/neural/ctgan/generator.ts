/**
 * CTGAN's generator (ctgan.py's Generator and Residual): per hidden size, Linear → BatchNorm1d → ReLU whose output is
 * concatenated with the layer's input (so each layer sees everything before it), then a Linear to the encoded width.
 * Batch norm normalises with the batch's own statistics (biased variance, ε = 1e-5), in training and in sampling
 * alike: CTGAN never switches its generator to eval mode, so its running averages are never used. It is written
 * from elementary ops because tfjs's batchNorm gradient runs through a slow Tile kernel on wasm (ML-NOTES item 5).
 */
import * as tf from "@tensorflow/tfjs"
import type { Random } from "../../random.ts"
import { applyDense, type Dense, type DenseJSON, denseToJSON, denseVariables, float32FromBase64, float32ToBase64, makeDense } from "../tf/dense.ts"

const BATCH_NORM_EPSILON = 1e-5

export interface Residual {
  readonly dense: Dense
  /** Batch norm's scale (γ, starts at 1) and shift (β, starts at 0), as PyTorch's affine BatchNorm1d. */
  readonly scale: tf.Variable<tf.Rank.R1>
  readonly shift: tf.Variable<tf.Rank.R1>
}

export interface Generator {
  readonly residuals: ReadonlyArray<Residual>
  readonly output: Dense
}

export const makeGenerator = (inputs: number, hidden: ReadonlyArray<number>, outputs: number, random: Random): Generator => {
  let width = inputs
  const residuals = hidden.map((size) => {
    // Built inside tidy: a variable copies its initial tensor, which would otherwise stay allocated for good.
    const residual = {
      dense: makeDense(width, size, random),
      scale: tf.tidy(() => tf.variable(tf.ones([size]))) as tf.Variable<tf.Rank.R1>,
      shift: tf.tidy(() => tf.variable(tf.zeros([size]))) as tf.Variable<tf.Rank.R1>
    }
    width += size
    return residual
  })
  return { residuals, output: makeDense(width, outputs, random) }
}

const batchNorm = (x: tf.Tensor2D, scale: tf.Tensor1D, shift: tf.Tensor1D): tf.Tensor2D => {
  const centred = tf.sub(x, tf.mean(x, 0))
  const variance = tf.mean(tf.square(centred), 0)
  return tf.add(tf.mul(tf.mul(centred, tf.rsqrt(tf.add(variance, BATCH_NORM_EPSILON))), scale), shift)
}

/** The raw output (before the activations) for a batch of [noise, conditional vector] rows. */
export const applyGenerator = (generator: Generator, input: tf.Tensor2D): tf.Tensor2D => {
  let x = input
  for (const { dense, scale, shift } of generator.residuals) {
    const out = tf.relu(batchNorm(applyDense(dense, x), scale, shift))
    x = tf.concat([out, x], 1)
  }
  return applyDense(generator.output, x)
}

export const generatorVariables = (generator: Generator): ReadonlyArray<tf.Variable> => [
  ...generator.residuals.flatMap(({ dense, scale, shift }) => [...denseVariables(dense), scale, shift]),
  ...denseVariables(generator.output)
]

export const disposeGenerator = (generator: Generator): void => {
  for (const variable of generatorVariables(generator)) variable.dispose()
}

export interface GeneratorJSON {
  readonly residuals: ReadonlyArray<{ readonly dense: DenseJSON; readonly scale: string; readonly shift: string }>
  readonly output: DenseJSON
}

export const generatorToJSON = (generator: Generator): GeneratorJSON => ({
  residuals: generator.residuals.map(({ dense, scale, shift }) => ({
    dense: denseToJSON(dense),
    scale: float32ToBase64(scale.dataSync() as Float32Array),
    shift: float32ToBase64(shift.dataSync() as Float32Array)
  })),
  output: denseToJSON(generator.output)
})

/** Throws when a weight's size disagrees with its layer's shape, before any variable is made (so nothing leaks). */
export const generatorFromJSON = (json: GeneratorJSON): Generator => {
  const decodeDense = (dense: DenseJSON) => ({
    inputs: dense.inputs,
    outputs: dense.outputs,
    weight: float32FromBase64(dense.weight, dense.inputs * dense.outputs),
    bias: float32FromBase64(dense.bias, dense.outputs)
  })
  const residuals = json.residuals.map(({ dense, scale, shift }) => ({
    dense: decodeDense(dense),
    scale: float32FromBase64(scale, dense.outputs),
    shift: float32FromBase64(shift, dense.outputs)
  }))
  const output = decodeDense(json.output)
  // Each variable made inside tidy, so that the tensor it is copied from is freed.
  const variable1d = (values: Float32Array) => tf.tidy(() => tf.variable(tf.tensor1d(values)))
  const denseOf = ({ bias, inputs, outputs, weight }: ReturnType<typeof decodeDense>): Dense => ({
    weight: tf.tidy(() => tf.variable(tf.tensor2d(weight, [inputs, outputs]))),
    bias: variable1d(bias)
  })
  return {
    residuals: residuals.map(({ dense, scale, shift }) => ({ dense: denseOf(dense), scale: variable1d(scale), shift: variable1d(shift) })),
    output: denseOf(output)
  }
}
