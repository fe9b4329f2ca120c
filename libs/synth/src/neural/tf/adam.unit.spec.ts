import { describe, expect, it } from "vitest"
import { makeAdam } from "./adam.ts"
import { startWasmBackend } from "./wasmBackend.ts"

/** torch.optim.Adam's update written out in float64 for one parameter vector. */
const referenceAdam = (theta: number[], gradients: number[][], lr: number, b1: number, b2: number, decay: number) => {
  const m = theta.map(() => 0)
  const v = theta.map(() => 0)
  gradients.forEach((gradient, t) => {
    theta.forEach((value, i) => {
      const g = gradient[i]! + decay * value
      m[i] = b1 * m[i]! + (1 - b1) * g
      v[i] = b2 * v[i]! + (1 - b2) * g * g
      const mHat = m[i]! / (1 - b1 ** (t + 1))
      const vHat = v[i]! / (1 - b2 ** (t + 1))
      theta[i] = value - (lr * mHat) / (Math.sqrt(vHat) + 1e-8)
    })
  })
  return theta
}

describe("Adam", () => {
  it("follows PyTorch's update with L2 weight decay over several steps", async () => {
    const tf = await startWasmBackend()
    const start = [0.5, -1.25, 2]
    const gradients = [[0.1, -0.3, 0.05], [0.2, 0.1, -0.4], [-0.05, 0.02, 0.3]]
    const variable = tf.variable(tf.tensor1d(start))
    const adam = makeAdam([variable], { learningRate: 0.01, beta1: 0.5, beta2: 0.9, weightDecay: 0.1 })
    for (const gradient of gradients) adam.step([tf.tensor1d(gradient)])
    const expected = referenceAdam([...start], gradients, 0.01, 0.5, 0.9, 0.1)
    Array.from(variable.dataSync()).forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 6))
    // The moments are the only state it keeps: one step later, disposing them frees exactly two tensors.
    const before = tf.memory().numTensors
    adam.dispose()
    expect(tf.memory().numTensors).toBe(before - 2)
  })
})

describe("dense layers", () => {
  it("start as PyTorch's nn.Linear (uniform within ±1/√fan_in), reproducibly, and survive a JSON round trip", async () => {
    const tf = await startWasmBackend()
    const { makeDense, denseToJSON, denseFromJSON, applyDense } = await import("./dense.ts")
    const { makeRandom } = await import("../../random.ts")
    const layer = makeDense(16, 4, makeRandom(7))
    const weights = Array.from(layer.weight.dataSync())
    expect(Math.max(...weights.map(Math.abs))).toBeLessThanOrEqual(1 / 4)
    expect(Math.max(...weights.map(Math.abs))).toBeGreaterThan(0.2)
    expect(Array.from(makeDense(16, 4, makeRandom(7)).weight.dataSync())).toEqual(weights)
    const restored = denseFromJSON(JSON.parse(JSON.stringify(denseToJSON(layer))))
    const input = tf.ones([2, 16]) as import("@tensorflow/tfjs").Tensor2D
    expect(Array.from(applyDense(restored, input).dataSync())).toEqual(Array.from(applyDense(layer, input).dataSync()))
  })
})

describe("variables", () => {
  it("leave no tensor behind once disposed (the initial values are not kept)", async () => {
    const tf = await startWasmBackend()
    const { makeDense, denseVariables, denseToJSON, denseFromJSON } = await import("./dense.ts")
    const { makeRandom } = await import("../../random.ts")
    const before = tf.memory().numTensors
    const layer = makeDense(8, 3, makeRandom(1))
    const loaded = denseFromJSON(denseToJSON(layer))
    const adam = makeAdam([...denseVariables(layer)], { learningRate: 0.1, beta1: 0.5, beta2: 0.9 })
    expect(tf.memory().numTensors).toBe(before + 2 + 2 + 4)
    adam.dispose()
    for (const variable of [...denseVariables(layer), ...denseVariables(loaded)]) variable.dispose()
    expect(tf.memory().numTensors).toBe(before)
  })
})
