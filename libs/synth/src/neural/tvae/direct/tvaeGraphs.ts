/**
 * TVAE's update as two ONNX graphs (tf/native/onnxGraph.ts) run by ONNX Runtime's vectorised kernels: the forward
 * pass (encoder, reparameterisation, decoder) and, once JavaScript has found each categorical span's largest output
 * per row (the shift that keeps e^· in range), SDV's loss with every gradient (directTvae.ts has the formulas). As
 * plain loops the element-wise work took ~15 ms of a ~23 ms telco step here.
 *
 * Every width is fixed when a training builds its graphs; only the rows (r) vary, for an epoch's short last batch.
 */
import { type GraphNode, type GraphValue, node, onnxModel, value } from "../../tf/native/onnxGraph.ts"

export interface TvaeGraphShape {
  readonly width: number
  readonly embedding: number
  readonly compress: ReadonlyArray<number>
  readonly decompress: ReadonlyArray<number>
  /** Categorical spans (at least 1: a table without any gets an all-zero indicator column and a pad of 1). */
  readonly spans: number
}

/** Names of a dense layer's parameters and their gradients, as the two graphs call them. */
const layer = (prefix: string) => ({ weight: `${prefix}W`, bias: `${prefix}B`, weightGradient: `${prefix}WGrad`, biasGradient: `${prefix}BGrad` })

const encoderLayer = (l: number) => layer(`enc${l}`)
const decoderLayer = (l: number) => layer(`dec${l}`)
const MEAN = layer("mean")
const LOG_VARIANCE = layer("logVar")
const OUTPUT = layer("out")

export interface TvaeDenseLayer {
  readonly names: ReturnType<typeof layer>
  readonly inputs: number
  readonly outputs: number
}

/**
 * Every dense layer in the order of TvaeNetworks.variables (encoder layers, μ head, log-variance head, decoder
 * layers, output; σ follows them), with the names the graphs give its parameters and their gradients.
 */
export const tvaeDenseLayers = (shape: Omit<TvaeGraphShape, "spans">): ReadonlyArray<TvaeDenseLayer> => {
  const stack = (names: (l: number) => ReturnType<typeof layer>, inputs: number, sizes: ReadonlyArray<number>) =>
    sizes.map((size, l) => ({ names: names(l), inputs: l === 0 ? inputs : sizes[l - 1]!, outputs: size }))
  const feature = shape.compress.at(-1) ?? shape.width
  return [
    ...stack(encoderLayer, shape.width, shape.compress),
    { names: MEAN, inputs: feature, outputs: shape.embedding },
    { names: LOG_VARIANCE, inputs: feature, outputs: shape.embedding },
    ...stack(decoderLayer, shape.embedding, shape.decompress),
    { names: OUTPUT, inputs: shape.decompress.at(-1) ?? shape.embedding, outputs: shape.width }
  ]
}

const parameterValues = (shape: TvaeGraphShape): Array<GraphValue> =>
  tvaeDenseLayers(shape).flatMap(({ inputs, names, outputs }) => [value(names.weight, [inputs, outputs]), value(names.bias, [outputs])])

const gradientValues = (shape: TvaeGraphShape): Array<GraphValue> =>
  tvaeDenseLayers(shape).flatMap(({ inputs, names, outputs }) => [
    value(names.weightGradient, [inputs, outputs]),
    value(names.biasGradient, [outputs])
  ])

interface Stack {
  readonly names: ReadonlyArray<ReturnType<typeof layer>>
  readonly sizes: ReadonlyArray<number>
  readonly input: string
  readonly activation: (l: number) => string
}

const stacks = (shape: TvaeGraphShape): { readonly encoder: Stack; readonly decoder: Stack } => ({
  encoder: { names: shape.compress.map((_, l) => encoderLayer(l)), sizes: shape.compress, input: "x", activation: (l) => `enc${l}` },
  decoder: { names: shape.decompress.map((_, l) => decoderLayer(l)), sizes: shape.decompress, input: "z", activation: (l) => `dec${l}` }
})

const last = (stack: Stack) => (stack.sizes.length === 0 ? stack.input : stack.activation(stack.sizes.length - 1))
const forwardStack = (stack: Stack): Array<GraphNode> =>
  stack.names.flatMap((names, l) => [
    node("Gemm", [l === 0 ? stack.input : stack.activation(l - 1), names.weight, names.bias], `${stack.activation(l)}Z`),
    node("Relu", [`${stack.activation(l)}Z`], stack.activation(l))
  ])

/** Backward through a ReLU stack from ∂loss/∂(its last activation) in `gradient`; answers ∂loss/∂input's name. */
const backwardStack = (stack: Stack, gradient: string, inputGradient: boolean): { nodes: Array<GraphNode>; gradient: string } => {
  const nodes: Array<GraphNode> = []
  let current = gradient
  for (let l = stack.sizes.length - 1; l >= 0; l--) {
    const names = stack.names[l]!
    const activation = stack.activation(l)
    nodes.push(
      node("Greater", [activation, "zero"], `${activation}Positive`),
      node("Where", [`${activation}Positive`, current, "zero"], `${activation}ZGrad`),
      node("Gemm", [l === 0 ? stack.input : stack.activation(l - 1), `${activation}ZGrad`], names.weightGradient, { transA: 1 }),
      node("ReduceSum", [`${activation}ZGrad`, "rowsAxis"], names.biasGradient, { keepdims: 0 })
    )
    if (l > 0 || inputGradient) {
      nodes.push(node("Gemm", [`${activation}ZGrad`, names.weight], `${activation}InGrad`, { transB: 1 }))
      current = `${activation}InGrad`
    }
  }
  return { nodes, gradient: current }
}

/**
 * Inputs x [r, width], eps [r, embedding], half [1] and the parameters; outputs every ReLU activation, mean,
 * logVariance, z and the reconstruction.
 */
export const tvaeForwardModel = (shape: TvaeGraphShape): Uint8Array => {
  const { decoder, encoder } = stacks(shape)
  const feature = last(encoder)
  const decoded = last(decoder)
  return onnxModel({
    name: "tvaeForward",
    nodes: [
      ...forwardStack(encoder),
      node("Gemm", [feature, MEAN.weight, MEAN.bias], "mean"),
      node("Gemm", [feature, LOG_VARIANCE.weight, LOG_VARIANCE.bias], "logVariance"),
      node("Mul", ["logVariance", "half"], "halfLogVariance"),
      node("Exp", ["halfLogVariance"], "spread"),
      node("Mul", ["eps", "spread"], "noiseTerm"),
      node("Add", ["mean", "noiseTerm"], "z"),
      ...forwardStack(decoder),
      node("Gemm", [decoded, OUTPUT.weight, OUTPUT.bias], "reconstruction")
    ],
    inputs: [
      value("x", ["r", shape.width]),
      value("eps", ["r", shape.embedding]),
      value("half", [1]),
      ...parameterValues(shape)
    ],
    outputs: [
      ...shape.compress.map((size, l) => value(encoder.activation(l), ["r", size])),
      value("mean", ["r", shape.embedding]),
      value("logVariance", ["r", shape.embedding]),
      value("z", ["r", shape.embedding]),
      ...shape.decompress.map((size, l) => value(decoder.activation(l), ["r", size])),
      value("reconstruction", ["r", shape.width])
    ]
  })
}

/**
 * Inputs: the forward pass's outputs, x, eps, shift [r, width] (each softmax entry's span maximum, the output itself
 * at value entries), sigma, valueMask and categoryMask [width], indicator [width, spans] and its transpose, spanPad
 * [spans], the constants (half, one, zero [1]; scale = lossFactor / r, rowsInverse = 1 / r, halfRowsInverse = 1 / 2r,
 * rowCount = r [1]; rowsAxis int64 [0]) and the parameters. Outputs the loss and every parameter's gradient.
 */
export const tvaeBackwardModel = (shape: TvaeGraphShape): Uint8Array => {
  const { decoder, encoder } = stacks(shape)
  const feature = last(encoder)
  const decoded = last(decoder)
  const decoderBack = backwardStack(decoder, "decodedGradient", true)
  const encoderBack = backwardStack(encoder, "featureGradient", false)
  const { embedding, spans, width } = shape
  return onnxModel({
    name: "tvaeBackward",
    nodes: [
      // Value outputs: Gaussian negative log-likelihood with the learned σ.
      node("Tanh", ["reconstruction"], "t"),
      node("Sub", ["x", "t"], "error"),
      node("Mul", ["error", "error"], "squaredError"),
      node("Mul", ["sigma", "sigma"], "variance"),
      node("Div", ["valueMask", "variance"], "valueOverVariance"),
      node("Mul", ["squaredError", "valueOverVariance"], "valueTerms"),
      node("ReduceSum", ["valueTerms"], "valueSum", { keepdims: 0 }),
      node("Mul", ["valueSum", "half"], "halfValueSum"),
      node("Log", ["sigma"], "logSigma"),
      node("Mul", ["valueMask", "logSigma"], "maskedLogSigma"),
      node("ReduceSum", ["maskedLogSigma"], "logSigmaSum", { keepdims: 0 }),
      node("Mul", ["logSigmaSum", "rowCount"], "logSigmaTerm"),
      node("Mul", ["t", "t"], "tSquared"),
      node("Sub", ["one", "tSquared"], "tanhSlope"),
      node("Sub", ["t", "x"], "negativeError"),
      node("Mul", ["negativeError", "tanhSlope"], "valueSlope"),
      node("Mul", ["valueSlope", "valueOverVariance"], "valueGradient"),
      node("ReduceSum", ["squaredError", "rowsAxis"], "columnSquaredError", { keepdims: 0 }),
      node("Mul", ["variance", "sigma"], "cubedSigma"),
      node("Div", ["columnSquaredError", "cubedSigma"], "errorOverCube"),
      node("Div", ["rowCount", "sigma"], "rowsOverSigma"),
      node("Sub", ["rowsOverSigma", "errorOverCube"], "sigmaTerms"),
      node("Mul", ["sigmaTerms", "valueMask"], "maskedSigmaTerms"),
      node("Mul", ["maskedSigmaTerms", "scale"], "sigmaGradient"),
      // Categorical spans: cross-entropy through the span indicator (log Σ e^(r − m) − Σ x·(r − m)).
      node("Sub", ["reconstruction", "shift"], "shifted"),
      node("Exp", ["shifted"], "exponentials"),
      node("MatMul", ["exponentials", "indicator"], "spanSums"),
      node("Add", ["spanSums", "spanPad"], "paddedSums"),
      node("Log", ["paddedSums"], "logSums"),
      node("ReduceSum", ["logSums"], "logSumTotal", { keepdims: 0 }),
      node("Mul", ["x", "categoryMask"], "targets"),
      node("Mul", ["targets", "shifted"], "targetTerms"),
      node("ReduceSum", ["targetTerms"], "targetTotal", { keepdims: 0 }),
      node("Sub", ["logSumTotal", "targetTotal"], "crossEntropy"),
      node("MatMul", ["spanSums", "indicatorT"], "entrySums"),
      node("Add", ["entrySums", "valueMask"], "denominators"),
      node("Div", ["exponentials", "denominators"], "softmax"),
      node("Sub", ["softmax", "x"], "softmaxError"),
      node("Mul", ["softmaxError", "categoryMask"], "categoryGradient"),
      node("Add", ["valueGradient", "categoryGradient"], "unscaledGradient"),
      node("Mul", ["unscaledGradient", "scale"], "reconstructionGradient"),
      // The loss, with the KL divergence.
      node("Add", ["halfValueSum", "logSigmaTerm"], "valueLoss"),
      node("Add", ["valueLoss", "crossEntropy"], "unscaledLoss"),
      node("Mul", ["unscaledLoss", "scale"], "reconstructionLoss"),
      node("Exp", ["logVariance"], "embeddingVariance"),
      node("Mul", ["mean", "mean"], "squaredMean"),
      node("Add", ["logVariance", "one"], "klStart"),
      node("Sub", ["klStart", "squaredMean"], "klMiddle"),
      node("Sub", ["klMiddle", "embeddingVariance"], "klTerms"),
      node("ReduceSum", ["klTerms"], "klSum", { keepdims: 0 }),
      node("Mul", ["klSum", "halfRowsInverse"], "divergence"),
      node("Sub", ["reconstructionLoss", "divergence"], "loss"),
      // The decoder, back to z.
      node("Gemm", [decoded, "reconstructionGradient"], OUTPUT.weightGradient, { transA: 1 }),
      node("ReduceSum", ["reconstructionGradient", "rowsAxis"], OUTPUT.biasGradient, { keepdims: 0 }),
      node("Gemm", ["reconstructionGradient", OUTPUT.weight], "decodedGradient", { transB: 1 }),
      ...decoderBack.nodes,
      // The reparameterisation and the divergence, to μ and log σ².
      node("Mul", ["mean", "rowsInverse"], "meanDivergence"),
      node("Add", ["meanDivergence", decoderBack.gradient], "meanGradient"),
      node("Sub", ["embeddingVariance", "one"], "varianceExcess"),
      node("Mul", ["varianceExcess", "halfRowsInverse"], "logVarianceDivergence"),
      node("Mul", ["logVariance", "half"], "halfLogVariance"),
      node("Exp", ["halfLogVariance"], "spread"),
      node("Mul", [decoderBack.gradient, "eps"], "zTimesEps"),
      node("Mul", ["zTimesEps", "spread"], "zTimesSpread"),
      node("Mul", ["zTimesSpread", "half"], "logVarianceThroughZ"),
      node("Add", ["logVarianceDivergence", "logVarianceThroughZ"], "logVarianceGradient"),
      // The heads and the encoder.
      node("Gemm", [feature, "meanGradient"], MEAN.weightGradient, { transA: 1 }),
      node("ReduceSum", ["meanGradient", "rowsAxis"], MEAN.biasGradient, { keepdims: 0 }),
      node("Gemm", [feature, "logVarianceGradient"], LOG_VARIANCE.weightGradient, { transA: 1 }),
      node("ReduceSum", ["logVarianceGradient", "rowsAxis"], LOG_VARIANCE.biasGradient, { keepdims: 0 }),
      node("Gemm", ["meanGradient", MEAN.weight], "featureFromMean", { transB: 1 }),
      node("Gemm", ["logVarianceGradient", LOG_VARIANCE.weight, "featureFromMean"], "featureGradient", { transB: 1 }),
      ...encoderBack.nodes
    ],
    inputs: [
      ...shape.compress.map((size, l) => value(encoder.activation(l), ["r", size])),
      value("mean", ["r", embedding]),
      value("logVariance", ["r", embedding]),
      value("z", ["r", embedding]),
      ...shape.decompress.map((size, l) => value(decoder.activation(l), ["r", size])),
      value("reconstruction", ["r", width]),
      value("x", ["r", width]),
      value("eps", ["r", embedding]),
      value("shift", ["r", width]),
      value("sigma", [width]),
      value("valueMask", [width]),
      value("categoryMask", [width]),
      value("indicator", [width, spans]),
      value("indicatorT", [spans, width]),
      value("spanPad", [spans]),
      ...["half", "one", "zero", "scale", "rowsInverse", "halfRowsInverse", "rowCount"].map((name) => value(name, [1])),
      value("rowsAxis", [1], "int64"),
      ...parameterValues(shape)
    ],
    outputs: [
      value("loss", [1]),
      ...gradientValues(shape),
      value("sigmaGradient", [width])
    ]
  })
}
