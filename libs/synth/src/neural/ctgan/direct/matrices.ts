/**
 * Row-major float32 matrices for the direct CTGAN and TVAE steps (see directStep.ts): parameter views into flat
 * arrays, and the ONNX Runtime products and sessions they run on (nativeGemm.ts).
 */
import type { NativeGemm } from "../../tf/native/nativeGemm.ts"

export type Multiply = NativeGemm["multiply"]

/** A dense layer's parameters (or their gradients) as views into a network's flat parameter array. */
export interface DenseView {
  readonly inputs: number
  readonly outputs: number
  /** [inputs, outputs], row-major: the input multiplies from the left, x·W, as dense.ts lays it out. */
  readonly weight: Float32Array
  readonly bias: Float32Array
}

/** Takes consecutive views from a flat array, in the order tfjs variables are listed (readWeights' layout). */
export const viewReader = (flat: Float32Array) => {
  let offset = 0
  const take = (size: number): Float32Array => {
    const view = flat.subarray(offset, offset + size)
    if (view.length !== size) throw new RangeError(`parameter layout needs more than ${flat.length} values`)
    offset += size
    return view
  }
  const dense = (inputs: number, outputs: number): DenseView => ({ inputs, outputs, weight: take(inputs * outputs), bias: take(outputs) })
  /** Throws unless every value was taken: a layout that disagrees with the networks must not train silently. */
  const finish = () => {
    if (offset !== flat.length) throw new RangeError(`parameter layout takes ${offset} of ${flat.length} values`)
  }
  return { take, dense, finish }
}

/** The products the direct steps run, on the leading parts of their (largest-batch) buffers. */
export interface Products {
  readonly multiply: Multiply
  /** out (rows × outputs) = x (rows × inputs) · W + b, the bias added inside the product (no pass of its own). */
  readonly dense: (layer: DenseView, x: Float32Array, rows: number, out: Float32Array) => void
  /** A session for a model of element-wise work (generatorGraphs.ts). */
  readonly session: NativeGemm["session"]
}

export const productsOf = (gemm: NativeGemm): Products => ({
  multiply: onLeadingParts(gemm.multiply),
  session: gemm.session,
  dense: (layer, x, rows, out) =>
    gemm.multiplyAddRow(x.subarray(0, rows * layer.inputs), layer.weight, layer.bias, { m: rows, k: layer.inputs, n: layer.outputs }, out.subarray(0, rows * layer.outputs))
})

/** into[j] = Σ over rows first … end − 1 of matrix[row, j] (overwrites `into`). */
export const columnSums = (matrix: Float32Array, columns: number, first: number, end: number, into: Float32Array): void => {
  into.fill(0)
  for (let row = first; row < end; row++) {
    const base = row * columns
    for (let j = 0; j < columns; j++) into[j] = into[j]! + matrix[base + j]!
  }
}

/**
 * The product on the leading parts of its arrays: ONNX Runtime's tensors must be exactly m×k, k×n and m×n, while
 * the direct step's buffers are sized for its largest batch.
 */
const onLeadingParts = (multiply: Multiply): Multiply => (a, transposeA, b, transposeB, dimensions, out) => {
  const { k, m, n } = dimensions
  multiply(a.subarray(0, m * k), transposeA, b.subarray(0, k * n), transposeB, dimensions, out.subarray(0, m * n))
}
