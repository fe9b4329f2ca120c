import * as tf from "@tensorflow/tfjs"
import { describe, expect, it } from "vitest"
import type { Dense } from "../tf/dense.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { criticLoss } from "./ctganStep.ts"
import { type Discriminator, discriminatorVariables } from "./discriminator.ts"
import { applyGenerator, type Generator } from "./generator.ts"
import { ctganReference as reference, type DenseJson } from "./testing/ctganReference.ts"

const denseOf = ({ bias, weight }: DenseJson): Dense => ({
  weight: tf.variable(tf.tensor2d(weight.map((row) => [...row]))),
  bias: tf.variable(tf.tensor1d([...bias]))
})

const expectClose = (actual: ArrayLike<number>, expected: ReadonlyArray<number>, tolerance: number) => {
  expect(actual.length).toBe(expected.length)
  for (let i = 0; i < expected.length; i++) expect(Math.abs(actual[i]! - expected[i]!)).toBeLessThan(tolerance * Math.max(1, Math.abs(expected[i]!)))
}

describe("the CTGAN networks against ctgan 0.12.1", () => {
  it("the generator: residual layers with batch norm on the batch's statistics, then the output layer", async () => {
    await startWasmBackend()
    const { generator: json } = reference
    const generator: Generator = {
      residuals: json.residuals.map((layer) => ({
        dense: denseOf(layer),
        scale: tf.variable(tf.tensor1d(layer.scale)),
        shift: tf.variable(tf.tensor1d(layer.shift))
      })),
      output: denseOf(json.output)
    }
    const raw = tf.tidy(() => applyGenerator(generator, tf.tensor2d(json.input)))
    expectClose(raw.dataSync(), json.raw.flat(), 1e-5)
  })

  it("the critic: WGAN loss plus the gradient penalty per pack, and its second-order gradients", async () => {
    await startWasmBackend()
    const { discriminator: json, pac, rows } = reference
    const layers = json.layers.map(denseOf)
    const discriminator: Discriminator = { hidden: layers.slice(0, -1), output: layers.at(-1)!, pac }
    // The reference runs in eval mode (no dropout): masks of ones.
    const ones = discriminator.hidden.map((layer) => tf.ones([rows / pac, layer.bias.shape[0]]) as tf.Tensor2D)
    const masks = { real: ones, fake: ones, penalty: ones }
    const alphas = tf.tensor2d(json.alphas.flatMap((alpha) => Array<number>(pac).fill(alpha)), [rows, 1])
    const real = tf.tensor2d(json.real)
    const fake = tf.tensor2d(json.fake)
    const loss = tf.tidy(() => criticLoss(discriminator, real, fake, alphas, masks))
    expect(loss.wasserstein.dataSync()[0]).toBeCloseTo(json.wasserstein, 5)
    expect(loss.total.dataSync()[0]! - loss.wasserstein.dataSync()[0]!).toBeCloseTo(json.penalty, 4)
    const variables = discriminatorVariables(discriminator)
    const { grads } = tf.variableGrads(() => criticLoss(discriminator, real, fake, alphas, masks).total, [...variables])
    json.gradients.forEach(({ bias, weight }, layer) => {
      expectClose(grads[variables[2 * layer]!.name]!.dataSync(), weight.flat(), 1e-4)
      expectClose(grads[variables[2 * layer + 1]!.name]!.dataSync(), bias, 1e-4)
    })
  })
})
