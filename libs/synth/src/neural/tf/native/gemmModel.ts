/**
 * The smallest ONNX models there are: one `Gemm` node, Y = op(A)·op(B) (+ a bias row), float32 matrices of any size
 * (symbolic dimensions m, k, n), with `transA`/`transB` fixed per model (onnxGraph.ts writes the bytes).
 */
import { onnxModel } from "./onnxGraph.ts"

/**
 * Inputs `a` and `b`, output `y`; `a` is [k, m] when transposed, `b` is [n, k] when transposed. With `bias`, a third
 * input `c` of length n is added to every row (Gemm's broadcast C): a dense layer's x·W + b in one pass.
 */
export const gemmModel = (transposeA: boolean, transposeB: boolean, bias = false): Uint8Array =>
  onnxModel({
    name: "gemm",
    nodes: [{
      op: "Gemm",
      inputs: bias ? ["a", "b", "c"] : ["a", "b"],
      outputs: ["y"],
      attributes: { transA: transposeA ? 1 : 0, transB: transposeB ? 1 : 0 }
    }],
    inputs: [
      { name: "a", dims: transposeA ? ["k", "m"] : ["m", "k"] },
      { name: "b", dims: transposeB ? ["n", "k"] : ["k", "n"] },
      ...(bias ? [{ name: "c", dims: ["n"] }] : [])
    ],
    outputs: [{ name: "y", dims: ["m", "n"] }]
  })
