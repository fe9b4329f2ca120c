import type * as TF from "@tensorflow/tfjs"
import { describe, expect, it } from "vitest"
import { makeRandom } from "../../random.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { applyDiscriminator, discriminatorVariables, dropoutMasks, makeDiscriminator } from "./discriminator.ts"
import { clippedGradientSum, crossEntropy } from "./perSampleClipping.ts"

/** DP-SGD's clipped sum the slow way: one gradient per sample (variableGrads on that row alone), clipped, summed. */
const naiveClippedSum = (
  tf: typeof TF,
  discriminator: ReturnType<typeof makeDiscriminator>,
  rows: TF.Tensor2D,
  signs: ReadonlyArray<number>,
  masks: ReadonlyArray<TF.Tensor2D>,
  maxGradNorm: number
) => {
  const variables = discriminatorVariables(discriminator)
  const sums = variables.map((variable) => new Float64Array(variable.size))
  const norms: Array<number> = []
  signs.forEach((sign, i) => {
    const row = tf.slice(rows, [i, 0], [1, rows.shape[1]])
    const rowMasks = masks.map((mask) => tf.slice(mask, [i, 0], [1, mask.shape[1]]))
    const { grads } = tf.variableGrads(
      () => tf.sum(crossEntropy(applyDiscriminator(discriminator, row, rowMasks).score, tf.tensor2d([[sign]]))) as TF.Scalar,
      [...variables]
    )
    const values = variables.map((variable) => Float64Array.from(grads[variable.name]!.dataSync()))
    const norm = Math.sqrt(values.reduce((total, gradient) => total + gradient.reduce((sum, g) => sum + g * g, 0), 0))
    norms.push(norm)
    const factor = Math.min(1, maxGradNorm / (norm + 1e-6))
    values.forEach((gradient, v) => gradient.forEach((g, k) => (sums[v]![k]! += factor * g)))
  })
  return { sums, norms }
}

describe("closed-form per-sample clipping", () => {
  it("sums the clipped per-sample gradients exactly as a per-sample loop does", async () => {
    const tf = await startWasmBackend()
    const random = makeRandom(3)
    const discriminator = makeDiscriminator(9, [16, 8], 1, random)
    const count = 12
    const rows = tf.tensor2d(Float32Array.from({ length: count * 9 }, () => 2 * random.normal()), [count, 9])
    const signs = Array.from({ length: count }, (_, i) => (i % 3 === 0 ? 1 : -1))
    const masks = dropoutMasks(discriminator, count, random)
    // A clipping norm between the smallest and the largest gradient norm, so both branches of min(1, C/‖g‖) run.
    const { norms } = naiveClippedSum(tf, discriminator, rows, signs, masks, Infinity)
    const sorted = [...norms].sort((a, b) => a - b)
    const maxGradNorm = sorted[Math.floor(count / 2)]!
    expect(sorted[0]!).toBeLessThan(maxGradNorm)
    expect(sorted[count - 1]!).toBeGreaterThan(maxGradNorm * 1.5)

    const expected = naiveClippedSum(tf, discriminator, rows, signs, masks, maxGradNorm).sums
    const signTensor = tf.tensor2d(Float32Array.from(signs), [count, 1])
    const before = tf.memory().numTensors
    const { gradients, losses } = clippedGradientSum(discriminator, rows, signTensor, masks, maxGradNorm)
    expect(gradients.map((gradient) => gradient.shape)).toEqual(discriminatorVariables(discriminator).map((variable) => variable.shape))
    gradients.forEach((gradient, v) => {
      const actual = gradient.dataSync()
      const scale = Math.max(...Array.from(expected[v]!, Math.abs))
      expect(scale).toBeGreaterThan(1e-3)
      actual.forEach((value, k) => expect(Math.abs(value - expected[v]![k]!)).toBeLessThan(1e-5 * Math.max(1, scale)))
    })
    const direct = tf.tidy(() => crossEntropy(applyDiscriminator(discriminator, rows, masks).score, signTensor).dataSync())
    losses.dataSync().forEach((value, i) => expect(value).toBeCloseTo(direct[i]!, 5))
    // What it returns is all it leaves behind.
    for (const tensor of [...gradients, losses]) tensor.dispose()
    expect(tf.memory().numTensors).toBe(before)
  })
})
