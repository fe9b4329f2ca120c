/**
 * CTGAN's generator (generator.ts) computed directly on flat arrays, forward and backward: per hidden size
 * Linear → batch norm (the batch's own statistics, biased variance, ε = 1e-5) → ReLU, concatenated before the
 * layer's input, then a Linear to the encoded width. Used by directStep.ts; directStep.unit.spec.ts checks its
 * gradients against tfjs's automatic ones on generator.ts.
 */
import { columnSums, type DenseView, type Products, viewReader } from "./matrices.ts"

const BATCH_NORM_EPSILON = 1e-5

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
}

interface ResidualView {
  readonly dense: DenseView
  readonly scale: Float32Array
  readonly shift: Float32Array
}

export const makeDirectGenerator = (shape: DirectGeneratorShape, parameters: Float32Array, gradients: Float32Array, products: Products): DirectGenerator => {
  const { multiply } = products
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
  const inverseDeviations = hidden.map((size) => new Float64Array(size))
  const raw = new Float32Array(maxRows * outputs)
  const xGradients = widths.map((width) => new Float32Array(maxRows * width))
  const preNormGradient = new Float32Array(maxRows * Math.max(1, ...hidden))
  const scaleSums = new Float64Array(Math.max(1, ...hidden))
  const shiftSums = new Float64Array(Math.max(1, ...hidden))
  const factors = new Float64Array(Math.max(1, ...hidden))
  // Float64: sums over up to a batch of rows.
  const columnMeans = new Float64Array(Math.max(1, ...hidden))

  const forward = (rows: number) => {
    for (let l = 0; l < depth; l++) {
      const size = hidden[l]!
      const { dense, scale, shift } = weights.residuals[l]!
      const z = normalized[l]!
      products.dense(dense, xs[l]!, rows, z)
      // The batch's mean and biased variance per column, in one pass (float64 sums: E[z²] − E[z]² stays accurate).
      const mean = columnMeans.subarray(0, size)
      const inverse = inverseDeviations[l]!
      mean.fill(0)
      inverse.fill(0)
      for (let row = 0; row < rows; row++) {
        const base = row * size
        for (let j = 0; j < size; j++) {
          const value = z[base + j]!
          mean[j] = mean[j]! + value
          inverse[j] = inverse[j]! + value * value
        }
      }
      for (let j = 0; j < size; j++) {
        const average = mean[j]! / rows
        mean[j] = average
        inverse[j] = 1 / Math.sqrt(Math.max(inverse[j]! / rows - average * average, 0) + BATCH_NORM_EPSILON)
      }
      const below = xs[l]!
      const out = xs[l + 1]!
      const belowWidth = widths[l]!
      const width = widths[l + 1]!
      for (let row = 0; row < rows; row++) {
        const from = row * size
        const to = row * width
        for (let j = 0; j < size; j++) {
          const n = (z[from + j]! - mean[j]!) * inverse[j]!
          z[from + j] = n
          const y = n * scale[j]! + shift[j]!
          out[to + j] = y > 0 ? y : 0
        }
        const belowStart = row * belowWidth
        for (let j = 0; j < belowWidth; j++) out[to + size + j] = below[belowStart + j]!
      }
    }
    products.dense(weights.output, xs[depth]!, rows, raw)
  }

  const backward = (rows: number, rawGradient: Float32Array) => {
    const top = widths[depth]!
    const outputGradient = rawGradient.subarray(0, rows * outputs)
    multiply(xs[depth]!.subarray(0, rows * top), true, outputGradient, false, { m: top, k: rows, n: outputs }, grads.output.weight)
    columnSums(outputGradient, outputs, 0, rows, grads.output.bias)
    multiply(outputGradient, false, weights.output.weight, true, { m: rows, k: outputs, n: top }, xGradients[depth]!)
    for (let l = depth - 1; l >= 0; l--) {
      const size = hidden[l]!
      const width = widths[l + 1]!
      const out = xs[l + 1]!
      const n = normalized[l]!
      const dx = xGradients[l + 1]!
      const { scale } = weights.residuals[l]!
      const residualGrads = grads.residuals[l]!
      // ∂/∂y through the ReLU, then γ's and β's gradients (float64 sums).
      const dy = preNormGradient
      const dScale = scaleSums.subarray(0, size)
      const dShift = shiftSums.subarray(0, size)
      dScale.fill(0)
      dShift.fill(0)
      for (let row = 0; row < rows; row++) {
        const from = row * width
        const at = row * size
        for (let j = 0; j < size; j++) {
          const g = out[from + j]! > 0 ? dx[from + j]! : 0
          dy[at + j] = g
          dScale[j] = dScale[j]! + g * n[at + j]!
          dShift[j] = dShift[j]! + g
        }
      }
      residualGrads.scale.set(dScale)
      residualGrads.shift.set(dShift)
      // Batch norm's backward pass: ∂z = γ·σ⁻¹·(∂y − mean ∂y − n̂ · mean(∂y·n̂)).
      const inverse = inverseDeviations[l]!
      for (let j = 0; j < size; j++) {
        dScale[j] = dScale[j]! / rows
        dShift[j] = dShift[j]! / rows
        factors[j] = scale[j]! * inverse[j]!
      }
      for (let row = 0; row < rows; row++) {
        const at = row * size
        for (let j = 0; j < size; j++) {
          dy[at + j] = factors[j]! * (dy[at + j]! - dShift[j]! - n[at + j]! * dScale[j]!)
        }
      }
      const dz = dy.subarray(0, rows * size)
      const belowWidth = widths[l]!
      multiply(xs[l]!.subarray(0, rows * belowWidth), true, dz, false, { m: belowWidth, k: rows, n: size }, residualGrads.dense.weight)
      columnSums(dz, size, 0, rows, residualGrads.dense.bias)
      if (l === 0) break
      // x_l's gradient: the product through W_l plus the part of x_{l+1}'s gradient that x_l was concatenated into.
      const below = xGradients[l]!
      multiply(dz, false, weights.residuals[l]!.dense.weight, true, { m: rows, k: size, n: belowWidth }, below)
      for (let row = 0; row < rows; row++) {
        const from = row * width + size
        const to = row * belowWidth
        for (let j = 0; j < belowWidth; j++) below[to + j] = below[to + j]! + dx[from + j]!
      }
    }
  }

  return { input: xs[0]!, raw, forward, backward }
}
