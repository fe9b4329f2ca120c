import type { Tensor, Tensor2D } from "@tensorflow/tfjs"
import { describe, expect, it } from "vitest"
import { makeRandom } from "../../../random.ts"
import { matrixProductEngine, startWasmBackend } from "../wasmBackend.ts"
import { loadNativeGemm } from "./nativeGemm.ts"

const randomMatrix = (rows: number, columns: number, seed: number) => {
  const random = makeRandom(seed)
  return Float32Array.from({ length: rows * columns }, () => random.normal())
}

/** op(A)·op(B) in float64, three loops: the reference. */
const reference = (
  a: Float32Array,
  transposeA: boolean,
  b: Float32Array,
  transposeB: boolean,
  { m, k, n }: { m: number; k: number; n: number }
): Float64Array => {
  const out = new Float64Array(m * n)
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0
      for (let p = 0; p < k; p++) {
        sum += a[transposeA ? p * m + i : i * k + p]! * b[transposeB ? j * k + p : p * n + j]!
      }
      out[i * n + j] = sum
    }
  }
  return out
}

const expectClose = (actual: ArrayLike<number>, expected: ArrayLike<number>) => {
  expect(actual.length).toBe(expected.length)
  let worst = 0
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!))
  // Sums of ~50 products of standard normals: float32 rounding stays well below 1e-3.
  expect(worst).toBeLessThan(1e-3)
}

const FLAGS = [[false, false], [false, true], [true, false], [true, true]] as const
// 40·50·60 = 120,000 multiply-adds: above the size at which products go to ONNX Runtime.
const SIZE = { m: 40, k: 50, n: 60 }

describe("matrix products on ONNX Runtime", () => {
  it("loads on this machine and the wasm backend uses it", async () => {
    await startWasmBackend()
    expect(loadNativeGemm()._tag).toBe("Loaded")
    expect(matrixProductEngine()).toEqual({ engine: "onnxruntime" })
  })

  it("multiplies with every transpose combination as three float64 loops do", () => {
    const native = loadNativeGemm()
    if (native._tag !== "Loaded") throw new Error(native.reason)
    const { k, m, n } = SIZE
    FLAGS.forEach(([transposeA, transposeB], index) => {
      const a = randomMatrix(m, k, 10 + index)
      const b = randomMatrix(k, n, 20 + index)
      const out = new Float32Array(m * n)
      native.gemm.multiply(a, transposeA, b, transposeB, SIZE, out)
      expectClose(out, reference(a, transposeA, b, transposeB, SIZE))
    })
  })

  it("gives tf.matMul the same products for matrices, batches of one, real batches and tiny products", async () => {
    const tf = await startWasmBackend()
    const { k, m, n } = SIZE
    for (const [transposeA, transposeB] of FLAGS) {
      const a = randomMatrix(m, k, 1)
      const b = randomMatrix(k, n, 2)
      const expected = reference(a, transposeA, b, transposeB, SIZE)
      const left = tf.tensor2d(a, transposeA ? [k, m] : [m, k])
      const right = tf.tensor2d(b, transposeB ? [n, k] : [k, n])
      const matrices = tf.matMul(left, right, transposeA, transposeB)
      expect(matrices.shape).toEqual([m, n])
      expectClose(await matrices.data(), expected)
      const batchOfOne = tf.matMul(tf.expandDims(left, 0), tf.expandDims(right, 0), transposeA, transposeB)
      expect(batchOfOne.shape).toEqual([1, m, n])
      expectClose(await batchOfOne.data(), expected)
      // Two products in one batch stay on the wasm kernel; both halves must still be right.
      const batch = tf.matMul(tf.stack([left, left]), tf.stack([right, right]), transposeA, transposeB)
      expect(batch.shape).toEqual([2, m, n])
      expectClose(await batch.data(), [...expected, ...expected])
    }
    const tiny = tf.matMul(tf.tensor2d([1, 2, 3, 4], [2, 2]), tf.tensor2d([5, 6, 7, 8], [2, 2]))
    expect(Array.from(await tiny.data())).toEqual([19, 22, 43, 50])
  })

  it("differentiates through native products to second order as the closed form says", async () => {
    const tf = await startWasmBackend()
    const [rows, inputs, outputs] = [64, 48, 32]
    const x = randomMatrix(rows, inputs, 4)
    const w = randomMatrix(inputs, outputs, 5)
    // P(w) = ‖∂/∂x sum(leakyRelu(x·w))‖², WGAN-GP's penalty shape, every product above the native size. With
    // D = leakyRelu′(x·w) (1 or 0.2, constant almost everywhere): ∂/∂x = D·wᵀ, so ∂P/∂w = 2 (D·wᵀ)ᵀ·D.
    const slopes = Float32Array.from(reference(x, false, w, false, { m: rows, k: inputs, n: outputs }), (s) => (s > 0 ? 1 : 0.2))
    const inputGradient = Float32Array.from(reference(slopes, false, w, true, { m: rows, k: outputs, n: inputs }))
    const expected = reference(inputGradient, true, slopes, false, { m: inputs, k: rows, n: outputs }).map((v) => 2 * v)
    const penalty = (weights: Tensor) => {
      const gradient = tf.grad((input: Tensor) => tf.sum(tf.leakyRelu(tf.matMul(input as Tensor2D, weights as Tensor2D), 0.2)))(
        tf.tensor2d(x, [rows, inputs])
      )
      return tf.sum(tf.square(gradient))
    }
    const analytic = await tf.grad(penalty)(tf.tensor2d(w, [inputs, outputs])).data()
    let worst = 0
    expected.forEach((value, i) => (worst = Math.max(worst, Math.abs(analytic[i]! - value) / Math.max(1, Math.abs(value)))))
    expect(worst).toBeLessThan(1e-4)
  })
})
