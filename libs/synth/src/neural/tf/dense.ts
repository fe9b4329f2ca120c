/**
 * Fully connected layers as plain variables, initialised as PyTorch's nn.Linear (weights and bias uniform in
 * ±1/√fan_in) from our seeded generator, so that a seed reproduces a training and the starting point matches
 * the reference implementations the models are compared with. Variables are unnamed: tfjs refuses a second
 * variable with a name already registered, and two trainings may share a process.
 */
import * as tf from "@tensorflow/tfjs"
import type { Random } from "../../random.ts"

export interface Dense {
  /** [inputs, outputs]: the input multiplies from the left, x·W, so no transpose flag is ever needed. */
  readonly weight: tf.Variable<tf.Rank.R2>
  readonly bias: tf.Variable<tf.Rank.R1>
}

const uniform = (count: number, bound: number, random: Random) =>
  Float32Array.from({ length: count }, () => (2 * random.next() - 1) * bound)

export const makeDense = (inputs: number, outputs: number, random: Random): Dense => {
  const bound = 1 / Math.sqrt(inputs)
  // Built inside tidy: a variable copies its initial tensor, which would otherwise stay allocated for good.
  return tf.tidy(() => ({
    weight: tf.variable(tf.tensor2d(uniform(inputs * outputs, bound, random), [inputs, outputs])),
    bias: tf.variable(tf.tensor1d(uniform(outputs, bound, random)))
  }))
}

export const applyDense = (layer: Dense, x: tf.Tensor2D): tf.Tensor2D => tf.add(tf.matMul(x, layer.weight), layer.bias)

export const denseVariables = (layer: Dense): ReadonlyArray<tf.Variable> => [layer.weight, layer.bias]

/** Weights for a model artifact: float32 little-endian bytes in base64 (a quarter of the size of number arrays). */
export interface DenseJSON {
  readonly inputs: number
  readonly outputs: number
  readonly weight: string
  readonly bias: string
}

export const float32ToBase64 = (values: Float32Array): string =>
  Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString("base64")

/** The inverse of float32ToBase64; throws when the byte count does not match `expected` values. */
export const float32FromBase64 = (text: string, expected: number): Float32Array => {
  const bytes = Buffer.from(text, "base64")
  if (bytes.byteLength !== expected * 4) throw new Error(`expected ${expected} float32 values, got ${bytes.byteLength} bytes`)
  const values = new Float32Array(expected)
  new Uint8Array(values.buffer).set(bytes)
  return values
}

export const denseToJSON = (layer: Dense): DenseJSON => ({
  inputs: layer.weight.shape[0],
  outputs: layer.weight.shape[1],
  weight: float32ToBase64(layer.weight.dataSync() as Float32Array),
  bias: float32ToBase64(layer.bias.dataSync() as Float32Array)
})

/** Trainable again, so a loaded model could be trained further; sampling never updates it. */
export const denseFromJSON = (json: DenseJSON): Dense =>
  tf.tidy(() => ({
    weight: tf.variable(tf.tensor2d(float32FromBase64(json.weight, json.inputs * json.outputs), [json.inputs, json.outputs])),
    bias: tf.variable(tf.tensor1d(float32FromBase64(json.bias, json.outputs)))
  }))
