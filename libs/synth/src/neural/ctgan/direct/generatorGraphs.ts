/**
 * The generator's element-wise work as ONNX graphs (tf/native/onnxGraph.ts), so that ONNX Runtime's vectorised
 * kernels run it: one call per residual layer forward (Linear → batch norm → ReLU → concatenation with the input) and
 * backward, and one for the output layer's backward pass. As plain loops, batch norm and the concatenations took
 * ~10 ms of a ~85 ms CTGAN step here (docs/neural-generators.md); the formulas are generator.ts's, batch norm with the
 * batch's own statistics (biased variance, ε = 1e-5).
 */
import { node, onnxModel } from "../../tf/native/onnxGraph.ts"

/**
 * Inputs x [r, w], weight [w, h], bias, scale (γ), shift (β) [h], epsilon [1]; outputs normalized (n̂) [r, h],
 * inverse (1/σ) [1, h] and next = [ReLU(n̂·γ + β), x] [r, h + w].
 */
export const residualForwardModel = (): Uint8Array =>
  onnxModel({
    name: "residualForward",
    nodes: [
      node("Gemm", ["x", "weight", "bias"], "z"),
      node("ReduceMean", ["z"], "mean", { axes: [0], keepdims: 1 }),
      node("Sub", ["z", "mean"], "centred"),
      node("Mul", ["centred", "centred"], "squares"),
      node("ReduceMean", ["squares"], "variance", { axes: [0], keepdims: 1 }),
      node("Add", ["variance", "epsilon"], "padded"),
      node("Sqrt", ["padded"], "deviation"),
      node("Reciprocal", ["deviation"], "inverse"),
      node("Mul", ["centred", "inverse"], "normalized"),
      node("Mul", ["normalized", "scale"], "scaled"),
      node("Add", ["scaled", "shift"], "y"),
      node("Relu", ["y"], "activated"),
      node("Concat", ["activated", "x"], "next", { axis: 1 })
    ],
    inputs: [
      { name: "x", dims: ["r", "w"] },
      { name: "weight", dims: ["w", "h"] },
      { name: "bias", dims: ["h"] },
      { name: "scale", dims: ["h"] },
      { name: "shift", dims: ["h"] },
      { name: "epsilon", dims: [1] }
    ],
    outputs: [
      { name: "normalized", dims: ["r", "h"] },
      { name: "inverse", dims: [1, "h"] },
      { name: "next", dims: ["r", "hw"] }
    ]
  })

/**
 * Inputs: gradient (∂loss/∂next) [r, h + w], x [r, w], weight [w, h], normalized [r, h], inverse [1, h], scale and
 * shift [h], rowsInverse (1/r) [1], zero [1], and int64 [1] tensors head ([0], [h]) and tail ([h], [h + w]) for the
 * column slices, columns ([1]) and rows ([0]) for the axes. Outputs the gradients of weight, bias, scale and shift,
 * and, with `inputGradient`, ∂loss/∂x [r, w]: through the layer plus the part of `gradient` that x was concatenated
 * into.
 *
 * Batch norm's backward pass: ∂z = γ·σ⁻¹·(∂y − mean ∂y − n̂ · mean(∂y·n̂)), ∂y = ∂ReLU-output where y > 0.
 */
export const residualBackwardModel = (inputGradient: boolean): Uint8Array =>
  onnxModel({
    name: "residualBackward",
    nodes: [
      { op: "Slice", inputs: ["gradient", "headStart", "headEnd", "columns"], outputs: ["activatedGradient"] },
      node("Mul", ["normalized", "scale"], "scaled"),
      node("Add", ["scaled", "shift"], "y"),
      node("Greater", ["y", "zero"], "positive"),
      node("Where", ["positive", "activatedGradient", "zero"], "yGradient"),
      node("Mul", ["yGradient", "normalized"], "scaleTerms"),
      node("ReduceSum", ["scaleTerms", "rows"], "scaleGradient", { keepdims: 0 }),
      node("ReduceSum", ["yGradient", "rows"], "shiftGradient", { keepdims: 0 }),
      node("Mul", ["scaleGradient", "rowsInverse"], "scaleMean"),
      node("Mul", ["shiftGradient", "rowsInverse"], "shiftMean"),
      node("Mul", ["normalized", "scaleMean"], "alongNormalized"),
      node("Sub", ["yGradient", "shiftMean"], "centredGradient"),
      node("Sub", ["centredGradient", "alongNormalized"], "normalizedGradient"),
      node("Mul", ["scale", "inverse"], "factor"),
      node("Mul", ["normalizedGradient", "factor"], "zGradient"),
      node("Gemm", ["x", "zGradient"], "weightGradient", { transA: 1 }),
      node("ReduceSum", ["zGradient", "rows"], "biasGradient", { keepdims: 0 }),
      ...(inputGradient
        ? [
          { op: "Slice", inputs: ["gradient", "tailStart", "tailEnd", "columns"], outputs: ["passedGradient"] },
          node("Gemm", ["zGradient", "weight", "passedGradient"], "xGradient", { transB: 1 })
        ]
        : [])
    ],
    inputs: [
      { name: "gradient", dims: ["r", "hw"] },
      { name: "x", dims: ["r", "w"] },
      { name: "weight", dims: ["w", "h"] },
      { name: "normalized", dims: ["r", "h"] },
      { name: "inverse", dims: [1, "h"] },
      { name: "scale", dims: ["h"] },
      { name: "shift", dims: ["h"] },
      { name: "rowsInverse", dims: [1] },
      { name: "zero", dims: [1] },
      { name: "headStart", dims: [1], type: "int64" },
      { name: "headEnd", dims: [1], type: "int64" },
      ...(inputGradient
        ? [{ name: "tailStart", dims: [1], type: "int64" as const }, { name: "tailEnd", dims: [1], type: "int64" as const }]
        : []),
      { name: "columns", dims: [1], type: "int64" },
      { name: "rows", dims: [1], type: "int64" }
    ],
    outputs: [
      { name: "weightGradient", dims: ["w", "h"] },
      { name: "biasGradient", dims: ["h"] },
      { name: "scaleGradient", dims: ["h"] },
      { name: "shiftGradient", dims: ["h"] },
      ...(inputGradient ? [{ name: "xGradient", dims: ["r", "w"] }] : [])
    ]
  })

/** A dense layer's backward pass: inputs x [r, w], weight [w, o], gradient [r, o], rows (int64 [0]); outputs the
 * weight's and bias's gradients and ∂loss/∂x. */
export const denseBackwardModel = (): Uint8Array =>
  onnxModel({
    name: "denseBackward",
    nodes: [
      node("Gemm", ["x", "gradient"], "weightGradient", { transA: 1 }),
      node("ReduceSum", ["gradient", "rows"], "biasGradient", { keepdims: 0 }),
      node("Gemm", ["gradient", "weight"], "xGradient", { transB: 1 })
    ],
    inputs: [
      { name: "x", dims: ["r", "w"] },
      { name: "weight", dims: ["w", "o"] },
      { name: "gradient", dims: ["r", "o"] },
      { name: "rows", dims: [1], type: "int64" }
    ],
    outputs: [
      { name: "weightGradient", dims: ["w", "o"] },
      { name: "biasGradient", dims: ["o"] },
      { name: "xGradient", dims: ["r", "w"] }
    ]
  })
