/**
 * CTGAN's generator (generator.ts) computed directly, forward and backward: per hidden size Linear → batch norm (the
 * batch's own statistics, biased variance, ε = 1e-5) → ReLU, concatenated before the layer's input, then a Linear to
 * the encoded width. Each layer runs as one ONNX Runtime call (generatorGraphs.ts). Used by directStep.ts;
 * directNetworks.unit.spec.ts checks its gradients against tfjs's automatic ones on generator.ts.
 */
import { denseBackwardModel, residualBackwardModel, residualForwardModel } from "./generatorGraphs.ts"
import { type DenseView, type Products, viewReader } from "./matrices.ts"

const BATCH_NORM_EPSILON = Float32Array.of(1e-5)
const ZERO = Float32Array.of(0)
const ROWS_AXIS = BigInt64Array.of(0n)
const COLUMNS_AXIS = BigInt64Array.of(1n)

export interface DirectGeneratorShape {
  /** Noise plus conditional vector. */
  readonly inputs: number
  readonly hidden: ReadonlyArray<number>
  /** The encoded row's width. */
  readonly outputs: number
  readonly maxRows: number
}

export interface DirectGenerator {
  /** maxRows × inputs: fill rows with [noise, conditional vector] before `forward`. */
  readonly input: Float32Array
  /** The raw output (before the heads), maxRows × outputs, after `forward`. */
  readonly raw: Float32Array
  readonly forward: (rows: number) => void
  /** Gradients into the array given at construction, from ∂loss/∂raw (rows × outputs) of the last forward pass. */
  readonly backward: (rows: number, rawGradient: Float32Array) => void
  /** Releases the ONNX Runtime sessions. */
  readonly dispose: () => void
}

interface ResidualView {
  readonly dense: DenseView
  readonly scale: Float32Array
  readonly shift: Float32Array
}

export const makeDirectGenerator = (shape: DirectGeneratorShape, parameters: Float32Array, gradients: Float32Array, products: Products): DirectGenerator => {
  const { hidden, inputs, maxRows, outputs } = shape
  const layout = (flat: Float32Array) => {
    const reader = viewReader(flat)
    let width = inputs
    const residuals: Array<ResidualView> = hidden.map((size) => {
      const residual = { dense: reader.dense(width, size), scale: reader.take(size), shift: reader.take(size) }
      width += size
      return residual
    })
    const output = reader.dense(width, outputs)
    reader.finish()
    return { residuals, output }
  }
  const weights = layout(parameters)
  const grads = layout(gradients)
  const depth = hidden.length
  // widths[l]: the width of x_l = [relu output of layer l, x_{l−1}]; x_0 is the input.
  const widths = hidden.reduce<Array<number>>((all, size) => [...all, all[all.length - 1]! + size], [inputs])
  const xs = widths.map((width) => new Float32Array(maxRows * width))
  const normalized = hidden.map((size) => new Float32Array(maxRows * size))
  const inverseDeviations = hidden.map((size) => new Float32Array(size))
  const raw = new Float32Array(maxRows * outputs)
  const xGradients = widths.map((width) => new Float32Array(maxRows * width))
  const forwardSession = products.session(residualForwardModel())
  const backwardSessions = [products.session(residualBackwardModel(false)), products.session(residualBackwardModel(true))]
  const outputBackward = products.session(denseBackwardModel())
  const rowsInverse = new Float32Array(1)
  const slices = hidden.map((size, l) => ({
    headStart: BigInt64Array.of(0n),
    headEnd: BigInt64Array.of(BigInt(size)),
    tailStart: BigInt64Array.of(BigInt(size)),
    tailEnd: BigInt64Array.of(BigInt(widths[l + 1]!))
  }))
  const matrix = (data: Float32Array, rows: number, columns: number) => ({ data: data.subarray(0, rows * columns), dims: [rows, columns] })
  const vector = (data: Float32Array) => ({ data, dims: [data.length] })
  const scalar = (data: Float32Array | BigInt64Array) => ({ data, dims: [1] })

  const forward = (rows: number) => {
    for (let l = 0; l < depth; l++) {
      const size = hidden[l]!
      const { dense, scale, shift } = weights.residuals[l]!
      forwardSession.run({
        x: matrix(xs[l]!, rows, widths[l]!),
        weight: matrix(dense.weight, widths[l]!, size),
        bias: vector(dense.bias),
        scale: vector(scale),
        shift: vector(shift),
        epsilon: scalar(BATCH_NORM_EPSILON)
      }, {
        normalized: matrix(normalized[l]!, rows, size),
        inverse: matrix(inverseDeviations[l]!, 1, size),
        next: matrix(xs[l + 1]!, rows, widths[l + 1]!)
      })
    }
    products.dense(weights.output, xs[depth]!, rows, raw)
  }

  const backward = (rows: number, rawGradient: Float32Array) => {
    const top = widths[depth]!
    outputBackward.run({
      x: matrix(xs[depth]!, rows, top),
      weight: matrix(weights.output.weight, top, outputs),
      gradient: matrix(rawGradient, rows, outputs),
      rows: scalar(ROWS_AXIS)
    }, {
      weightGradient: matrix(grads.output.weight, top, outputs),
      biasGradient: vector(grads.output.bias),
      xGradient: matrix(xGradients[depth]!, rows, top)
    })
    rowsInverse[0] = 1 / rows
    for (let l = depth - 1; l >= 0; l--) {
      const size = hidden[l]!
      const { dense, scale, shift } = weights.residuals[l]!
      const residualGrads = grads.residuals[l]!
      const { headEnd, headStart, tailEnd, tailStart } = slices[l]!
      const passesOn = l > 0
      backwardSessions[passesOn ? 1 : 0]!.run({
        gradient: matrix(xGradients[l + 1]!, rows, widths[l + 1]!),
        x: matrix(xs[l]!, rows, widths[l]!),
        weight: matrix(dense.weight, widths[l]!, size),
        normalized: matrix(normalized[l]!, rows, size),
        inverse: matrix(inverseDeviations[l]!, 1, size),
        scale: vector(scale),
        shift: vector(shift),
        rowsInverse: scalar(rowsInverse),
        zero: scalar(ZERO),
        headStart: scalar(headStart),
        headEnd: scalar(headEnd),
        ...(passesOn ? { tailStart: scalar(tailStart), tailEnd: scalar(tailEnd) } : {}),
        columns: scalar(COLUMNS_AXIS),
        rows: scalar(ROWS_AXIS)
      }, {
        weightGradient: matrix(residualGrads.dense.weight, widths[l]!, size),
        biasGradient: vector(residualGrads.dense.bias),
        scaleGradient: vector(residualGrads.scale),
        shiftGradient: vector(residualGrads.shift),
        ...(passesOn ? { xGradient: matrix(xGradients[l]!, rows, widths[l]!) } : {})
      })
    }
  }

  const dispose = () => {
    for (const session of [forwardSession, ...backwardSessions, outputBackward]) session.dispose()
  }

  return { input: xs[0]!, raw, forward, backward, dispose }
}
