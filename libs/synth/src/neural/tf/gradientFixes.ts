/**
 * Gradient registrations that make tfjs's wasm backend fast and able to take second-order gradients
 * (shared/design/ML-NOTES.md, items 3 and 4).
 */
import * as tf from "@tensorflow/tfjs"

/** The last two axes swapped (a plain transpose for matrices). */
const swapLastAxes = (x: tf.Tensor): tf.Tensor => {
  const perm = x.shape.map((_, axis) => axis)
  perm[perm.length - 1] = perm.length - 2
  perm[perm.length - 2] = perm.length - 1
  return tf.transpose(x, perm)
}

/** Whether matmul's transpose flags cost nothing (ONNX Runtime's kernel runs the products, see native/). */
let transposeFlagsAreFast = false

/**
 * A product with no transpose flag on tfjs's wasm kernel, where flags make it ~10× slower (2 GFLOPS against 17–30);
 * with the flags when ONNX Runtime multiplies, which reads transposed operands at full speed (an explicit transpose
 * would only add a copy).
 */
const plainMatMul = (a: tf.Tensor, transposeA: boolean, b: tf.Tensor, transposeB: boolean): tf.Tensor =>
  transposeFlagsAreFast
    ? tf.matMul(a, b, transposeA, transposeB)
    : tf.matMul(transposeA ? swapLastAxes(a) : a, transposeB ? swapLastAxes(b) : b)

/**
 * BatchMatMul's gradient with explicit transposes instead of matmul flags: the same formulas as tfjs's own
 * (for C = op(A)·op(B)), 3.5–4× faster on a whole CTGAN step. Built from differentiable ops, so a gradient of
 * this gradient (WGAN-GP's penalty) still works. Assumes A and B share their batch dimensions, as every model
 * here uses plain matrices; broadcast batch matmuls would need tfjs's reduction step.
 */
const batchMatMulGradient: tf.GradConfig = {
  kernelName: tf.BatchMatMul,
  inputsToSave: ["a", "b"],
  gradFunc: (dy, saved, attrs) => {
    const [a, b] = saved as [tf.Tensor, tf.Tensor]
    const { transposeA, transposeB } = attrs as unknown as tf.BatchMatMulAttrs
    const gradient = dy as tf.Tensor
    if (!transposeA && !transposeB) {
      return { a: () => plainMatMul(gradient, false, b, true), b: () => plainMatMul(a, true, gradient, false) }
    }
    if (!transposeA && transposeB) {
      return { a: () => plainMatMul(gradient, false, b, false), b: () => plainMatMul(gradient, true, a, false) }
    }
    if (transposeA && !transposeB) {
      return { a: () => plainMatMul(b, false, gradient, true), b: () => plainMatMul(a, false, gradient, false) }
    }
    return { a: () => plainMatMul(b, true, gradient, true), b: () => plainMatMul(gradient, true, a, true) }
  }
}

/**
 * Comparisons are piecewise constant, so their gradient is zero almost everywhere. tfjs registers none, and a
 * second-order gradient through leakyRelu (whose gradient uses Greater) fails with "gradient function not found".
 */
const zeroGradient = (kernelName: string): tf.GradConfig => ({
  kernelName,
  inputsToSave: ["a", "b"],
  gradFunc: (_dy, saved) => {
    const [a, b] = saved as [tf.Tensor, tf.Tensor]
    return { a: () => tf.zerosLike(a), b: () => tf.zerosLike(b) }
  }
})

const comparisons = [tf.Greater, tf.GreaterEqual, tf.Less, tf.LessEqual, tf.Equal, tf.NotEqual]

let registered = false

/** `options.transposeFlagsAreFast`: true once the native matmul kernel is registered. */
export const registerGradientFixes = (options: { readonly transposeFlagsAreFast: boolean }): void => {
  transposeFlagsAreFast = options.transposeFlagsAreFast
  if (registered) return
  registered = true
  // registerGradient replaces an existing registration, and says so with a console warning once per kernel.
  const warn = console.warn
  console.warn = () => {}
  try {
    tf.registerGradient(batchMatMulGradient)
    for (const kernelName of comparisons) tf.registerGradient(zeroGradient(kernelName))
  } finally {
    console.warn = warn
  }
}
