/**
 * CTGAN's discriminator (critic): PacGAN packs `pac` rows into one input (ctgan.py reshapes [rows, d] to
 * [rows / pac, pac·d]), then per hidden size Linear → LeakyReLU(0.2) → Dropout(0.5), and a Linear to one score.
 * Dropout masks come from the caller (drawn from the training's seeded generator), so a seed reproduces a training.
 */
import * as tf from "@tensorflow/tfjs"
import type { Random } from "../../random.ts"
import { applyDense, type Dense, denseVariables, makeDense } from "../tf/dense.ts"
import { fairCoins } from "./noise.ts"

const LEAKY_SLOPE = 0.2
const DROPOUT = 0.5

export interface Discriminator {
  readonly hidden: ReadonlyArray<Dense>
  readonly output: Dense
  readonly pac: number
}

/** `inputs` is one row's width (encoded row + conditional vector); the first layer takes pac of them. */
export const makeDiscriminator = (inputs: number, hidden: ReadonlyArray<number>, pac: number, random: Random): Discriminator => {
  let width = inputs * pac
  const layers = hidden.map((size) => {
    const layer = makeDense(width, size, random)
    width = size
    return layer
  })
  return { hidden: layers, output: makeDense(width, 1, random), pac }
}

/** Every dense layer in order: the hidden ones, then the output. */
export const discriminatorLayers = (discriminator: Discriminator): ReadonlyArray<Dense> => [...discriminator.hidden, discriminator.output]

export const discriminatorVariables = (discriminator: Discriminator): ReadonlyArray<tf.Variable> =>
  discriminatorLayers(discriminator).flatMap(denseVariables)

export const disposeDiscriminator = (discriminator: Discriminator): void => {
  for (const variable of discriminatorVariables(discriminator)) variable.dispose()
}

/**
 * Inverted dropout masks for one pass over `packs` packed inputs: 0 with probability 0.5, else 1 / (1 − 0.5) = 2,
 * as torch.nn.Dropout(0.5) in training mode.
 */
export const dropoutMasks = (discriminator: Discriminator, packs: number, random: Random): ReadonlyArray<tf.Tensor2D> =>
  discriminator.hidden.map((layer) => {
    const size = layer.bias.shape[0]
    return tf.tensor2d(fairCoins(packs * size, 1 / (1 - DROPOUT), random), [packs, size])
  })

export interface DiscriminatorPass {
  /** One score per pack: [rows / pac, 1]. */
  readonly score: tf.Tensor2D
  /** Each dense layer's input (what per-sample gradients multiply with), in layer order. */
  readonly layerInputs: ReadonlyArray<tf.Tensor2D>
}

/**
 * The scores of `rows` (rows × one row's width, rows a multiple of pac). `preActivationShifts`, when given, are added
 * to each dense layer's output before its activation: differentiating with respect to zero shifts yields each layer's
 * per-pack error signal δ, which DP-SGD's closed-form per-sample clipping needs.
 */
export const applyDiscriminator = (
  discriminator: Discriminator,
  rows: tf.Tensor2D,
  masks: ReadonlyArray<tf.Tensor2D>,
  preActivationShifts?: ReadonlyArray<tf.Tensor2D>
): DiscriminatorPass => {
  const packs = rows.shape[0] / discriminator.pac
  let x: tf.Tensor2D = tf.reshape(rows, [packs, rows.shape[1] * discriminator.pac])
  const layerInputs: Array<tf.Tensor2D> = []
  const shifted = (z: tf.Tensor2D, layer: number): tf.Tensor2D => (preActivationShifts === undefined ? z : tf.add(z, preActivationShifts[layer]!))
  discriminator.hidden.forEach((layer, index) => {
    layerInputs.push(x)
    x = tf.mul(tf.leakyRelu(shifted(applyDense(layer, x), index), LEAKY_SLOPE), masks[index]!)
  })
  layerInputs.push(x)
  return { score: shifted(applyDense(discriminator.output, x), discriminator.hidden.length), layerInputs }
}
