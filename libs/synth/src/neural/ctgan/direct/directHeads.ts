/**
 * The generator's output heads (activation.ts) computed directly: tanh for normalised values, gumbel-softmax
 * (τ = 0.2) for each one-hot span, their backward pass, and CTGAN's conditional loss with its gradient.
 */
import type { Span } from "../../../transform/index.ts"
import { GUMBEL_TEMPERATURE } from "../activation.ts"
import type { Conditions, ConditionSpace } from "../conditions.ts"

export interface DirectHeads {
  /** The activated rows of `raw` (rows × width) with this gumbel noise, into `activated`. */
  readonly activate: (raw: Float32Array, gumbel: Float32Array, rows: number, activated: Float32Array) => void
  /**
   * ∂loss/∂raw into `rawGradient`, from the activated rows and ∂loss/∂activated, read from rows of `stride` floats
   * (the critic's input rows, [activated, conditional vector]).
   */
  readonly backward: (activated: Float32Array, activatedGradient: Float32Array, stride: number, rows: number, rawGradient: Float32Array) => void
  /** Adds the conditional loss's gradient to `rawGradient`; answers the loss (cross-entropy summed, ÷ rows). */
  readonly conditionLoss: (raw: Float32Array, conditions: Conditions, rawGradient: Float32Array) => number
}

export const makeDirectHeads = (spans: ReadonlyArray<Span>, width: number, space: ConditionSpace): DirectHeads => {
  const values = spans.filter((span) => span.activation === "tanh")
  const softmaxes = spans.filter((span) => span.activation === "softmax")

  const activate: DirectHeads["activate"] = (raw, gumbel, rows, activated) => {
    for (let row = 0; row < rows; row++) {
      const base = row * width
      for (const { offset, width: size } of values) {
        for (let j = base + offset; j < base + offset + size; j++) activated[j] = Math.tanh(raw[j]!)
      }
      for (const { offset, width: size } of softmaxes) {
        const start = base + offset
        const end = start + size
        let largest = -Infinity
        for (let j = start; j < end; j++) {
          const exponent = (raw[j]! + gumbel[j]!) / GUMBEL_TEMPERATURE
          activated[j] = exponent
          if (exponent > largest) largest = exponent
        }
        let sum = 0
        for (let j = start; j < end; j++) {
          const e = Math.exp(activated[j]! - largest)
          activated[j] = e
          sum += e
        }
        for (let j = start; j < end; j++) activated[j] = activated[j]! / sum
      }
    }
  }

  const backward: DirectHeads["backward"] = (activated, activatedGradient, stride, rows, rawGradient) => {
    for (let row = 0; row < rows; row++) {
      const base = row * width
      const from = row * stride
      for (const { offset, width: size } of values) {
        for (let j = offset; j < offset + size; j++) {
          const y = activated[base + j]!
          rawGradient[base + j] = activatedGradient[from + j]! * (1 - y * y)
        }
      }
      // Softmax of (raw + g)/τ: ∂raw_j = y_j (∂y_j − Σ_k y_k ∂y_k) / τ.
      for (const { offset, width: size } of softmaxes) {
        let dot = 0
        for (let j = offset; j < offset + size; j++) dot += activated[base + j]! * activatedGradient[from + j]!
        for (let j = offset; j < offset + size; j++) {
          rawGradient[base + j] = (activated[base + j]! * (activatedGradient[from + j]! - dot)) / GUMBEL_TEMPERATURE
        }
      }
    }
  }

  const conditionLoss: DirectHeads["conditionLoss"] = (raw, conditions, rawGradient) => {
    if (space.columns.length === 0) return 0
    const rows = conditions.columns.length
    let total = 0
    for (let row = 0; row < rows; row++) {
      const { offset, width: size } = space.columns[conditions.columns[row]!]!
      const start = row * width + offset
      const end = start + size
      let largest = -Infinity
      for (let j = start; j < end; j++) if (raw[j]! > largest) largest = raw[j]!
      let sum = 0
      for (let j = start; j < end; j++) sum += Math.exp(raw[j]! - largest)
      const target = start + conditions.slots[row]!
      total += Math.log(sum) - (raw[target]! - largest)
      // ∂(cross-entropy ÷ rows)/∂raw = (softmax − one-hot) ÷ rows.
      for (let j = start; j < end; j++) rawGradient[j] = rawGradient[j]! + Math.exp(raw[j]! - largest) / sum / rows
      rawGradient[target] = rawGradient[target]! - 1 / rows
    }
    return total / rows
  }

  return { activate, backward, conditionLoss }
}
