import type { Tensor, Tensor2D } from "@tensorflow/tfjs"
import { describe, expect, it } from "vitest"
import { makeRandom } from "../../random.ts"
import { startWasmBackend } from "./wasmBackend.ts"

const randomMatrix = (rows: number, columns: number, seed: number) => {
  const random = makeRandom(seed)
  return Float32Array.from({ length: rows * columns }, () => random.normal())
}

describe("the tfjs wasm backend", () => {
  it("starts on wasm and leaves no process-wide error listeners behind", async () => {
    const before = process.listeners("unhandledRejection").length + process.listeners("uncaughtException").length
    const tf = await startWasmBackend()
    expect(tf.getBackend()).toBe("wasm")
    expect(process.listeners("unhandledRejection").length + process.listeners("uncaughtException").length).toBe(before)
  })

  it("takes matmul gradients with every transpose combination as the product rule says", async () => {
    const tf = await startWasmBackend()
    const a = tf.tensor2d(randomMatrix(3, 4, 1), [3, 4])
    const b = tf.tensor2d(randomMatrix(4, 5, 2), [4, 5])
    const weights = tf.tensor2d(randomMatrix(3, 5, 3), [3, 5])
    // Reference: d/dA sum(W ∘ (A·B)) = W·Bᵀ and d/dB = Aᵀ·W, computed without any gradient machinery.
    const expectedA = (await tf.matMul(weights, tf.transpose(b)).array()) as Array<Array<number>>
    const expectedB = (await tf.matMul(tf.transpose(a), weights).array()) as Array<Array<number>>
    for (const [transposeA, transposeB] of [[false, false], [false, true], [true, false], [true, true]] as const) {
      const left = transposeA ? tf.transpose(a) : a
      const right = transposeB ? tf.transpose(b) : b
      const loss = (x: Tensor, y: Tensor) => tf.sum(tf.mul(weights, tf.matMul(x as Tensor2D, y as Tensor2D, transposeA, transposeB)))
      const [gradLeft, gradRight] = tf.grads(loss as (...args: Array<Tensor>) => Tensor)([left, right])
      const gotA = transposeA ? tf.transpose(gradLeft!) : gradLeft!
      const gotB = transposeB ? tf.transpose(gradRight!) : gradRight!
      const [actualA, actualB] = [(await gotA.array()) as number[][], (await gotB.array()) as number[][]]
      actualA.forEach((row, i) => row.forEach((value, j) => expect(value).toBeCloseTo(expectedA[i]![j]!, 4)))
      actualB.forEach((row, i) => row.forEach((value, j) => expect(value).toBeCloseTo(expectedB[i]![j]!, 4)))
    }
  })

  it("differentiates a gradient through leakyRelu (WGAN-GP's second order) and matches finite differences", async () => {
    const tf = await startWasmBackend()
    const x = tf.tensor2d(randomMatrix(6, 3, 4), [6, 3])
    const penalty = (w: Tensor) => {
      // ‖∂/∂x sum(leakyRelu(x·w))‖² as a function of w, the shape of the gradient penalty.
      const inputGradient = tf.grad((input: Tensor) => tf.sum(tf.leakyRelu(tf.matMul(input as Tensor2D, w as Tensor2D), 0.2)))(x)
      return tf.sum(tf.square(inputGradient))
    }
    const w = tf.tensor2d(randomMatrix(3, 2, 5), [3, 2])
    const analytic = (await tf.grad(penalty)(w).data())[0]!
    const step = 1e-2
    const shifted = (delta: number) => tf.add(w, tf.tensor2d([delta, 0, 0, 0, 0, 0], [3, 2]))
    const numeric = ((await penalty(shifted(step)).data())[0]! - (await penalty(shifted(-step)).data())[0]!) / (2 * step)
    expect(Number.isFinite(analytic)).toBe(true)
    expect(Math.abs(analytic)).toBeGreaterThan(1e-3)
    expect(analytic).toBeCloseTo(numeric, 2)
  })
})
