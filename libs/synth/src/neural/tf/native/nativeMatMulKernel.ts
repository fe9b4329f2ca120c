/**
 * Replaces the wasm backend's BatchMatMul kernel by one that hands plain matrix products to ONNX Runtime
 * (nativeGemm.ts) and everything else (broadcast or real batches, other dtypes, empty or tiny products) to the
 * kernel it replaces. Matrix products are ~60 % of a CTGAN step's kernel time on wasm; natively they run ~3× faster.
 *
 * "A plain product": two matrices, or tensors whose leading (batch) dimensions are all 1; the output has the wasm
 * kernel's shape, the longer of the two leading shapes followed by [m, n].
 */
import * as tf from "@tensorflow/tfjs"
import type { BackendWasm } from "@tensorflow/tfjs-backend-wasm"
import type { NativeGemm } from "./nativeGemm.ts"

/**
 * Below this many multiply-adds the call itself (~10 µs: three tensor wrappers and a session run) costs more than the
 * wasm kernel saves; CTGAN's and TVAE's products are 10⁶–10⁸.
 */
const NATIVE_MIN_MULTIPLY_ADDS = 32_768

const isPlainMatrix = (tensor: tf.TensorInfo): boolean =>
  tensor.dtype === "float32" && tensor.shape.length >= 2 && tensor.shape.slice(0, -2).every((size) => size === 1)

export const registerNativeMatMul = (gemm: NativeGemm): void => {
  const replaced = tf.getKernel(tf.BatchMatMul, "wasm")
  if (replaced === undefined) throw new Error("the wasm backend has no BatchMatMul kernel to replace")
  const wasmMatMul = replaced.kernelFunc
  const kernelFunc: tf.KernelFunc = (args) => {
    const { a, b } = args.inputs as { readonly a: tf.TensorInfo; readonly b: tf.TensorInfo }
    const { transposeA, transposeB } = args.attrs as unknown as tf.BatchMatMulAttrs
    if (!isPlainMatrix(a) || !isPlainMatrix(b)) return wasmMatMul(args)
    const [aRows, aColumns] = a.shape.slice(-2) as [number, number]
    const [bRows, bColumns] = b.shape.slice(-2) as [number, number]
    const m = transposeA ? aColumns : aRows
    const k = transposeA ? aRows : aColumns
    const n = transposeB ? bRows : bColumns
    if (m * k * n < NATIVE_MIN_MULTIPLY_ADDS) return wasmMatMul(args)
    const backend = args.backend as BackendWasm
    // The output first: allocating may grow wasm memory, which would detach views taken before it.
    const leading = (a.shape.length >= b.shape.length ? a : b).shape.slice(0, -2)
    const out = backend.makeOutput([...leading, m, n], "float32")
    gemm.multiply(
      backend.typedArrayFromHeap(a) as Float32Array,
      transposeA,
      backend.typedArrayFromHeap(b) as Float32Array,
      transposeB,
      { m, k, n },
      backend.typedArrayFromHeap(out) as Float32Array
    )
    return out
  }
  tf.unregisterKernel(tf.BatchMatMul, "wasm")
  // The replaced kernel's setup already ran when the backend started; its kernelFunc keeps working as before.
  tf.registerKernel({ ...replaced, kernelFunc })
}
