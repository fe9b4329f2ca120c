/**
 * The generator's output heads (ctgan.py's _apply_activate and _cond_loss): tanh for each normalised value, and
 * gumbel-softmax with temperature 0.2 for each one-hot span (a mode, a category, a missing indicator), so the
 * discriminator sees nearly one-hot rows while gradients still flow; and the conditional loss, the cross-entropy
 * between each row's conditioned category and the generator's logits for that column.
 *
 * Laid out for tfjs's wasm backend (shared/design/ML-NOTES.md): no gather (no gradient there) and no span-by-span
 * slices and concat (a column concat runs in JavaScript there). Every softmax span is normalised at once: its sums
 * come from a product with a span indicator matrix [width, spans] and go back to its entries through the transposed
 * indicator. Before exponentiating, each entry is shifted by its span's largest entry in that row, found in
 * JavaScript from the output (the backend is synchronous, so reading it costs a copy); a softmax does not change under
 * such a shift, so the shift is a constant without a gradient and only keeps e^· in range.
 */
import * as tf from "@tensorflow/tfjs"
import type { Random } from "../../random.ts"
import type { Span } from "../../transform/index.ts"
import type { Conditions, ConditionSpace } from "./conditions.ts"

export const GUMBEL_TEMPERATURE = 0.2

/**
 * Gumbel(0, 1) noise for every entry of a rows × width output (torch.nn.functional.gumbel_softmax draws
 * −log(E), E ~ Exp(1)); tanh entries ignore theirs. U = (32 random bits + ½) / 2³² is never 0 or 1, so no draw is
 * infinite, and takes one 32-bit draw.
 */
export const gumbelNoise = (count: number, random: Random): Float32Array => {
  const noise = new Float32Array(count)
  for (let i = 0; i < count; i++) noise[i] = -Math.log(-Math.log((random.uint32() + 0.5) * 2.3283064365386963e-10))
  return noise
}

export interface OutputHeads {
  /** The activated output, what the discriminator sees and the decoder reads (inside a tidy or gradient function). */
  readonly activate: (raw: tf.Tensor2D, gumbel: Float32Array) => tf.Tensor2D
  /** CTGAN's conditional loss: the conditioned columns' cross-entropy, summed over rows, divided by the rows. */
  readonly conditionLoss: (raw: tf.Tensor2D, conditions: Conditions) => tf.Scalar
  /** Frees the constant masks and indicators. */
  readonly dispose: () => void
}

export const makeOutputHeads = (spans: ReadonlyArray<Span>, width: number, space: ConditionSpace): OutputHeads => {
  const softmaxSpans = spans.filter((span) => span.activation === "softmax")
  const spanCount = Math.max(1, softmaxSpans.length)
  const isValue = new Float32Array(width)
  const toSpans = new Float32Array(width * spanCount)
  const fromSpans = new Float32Array(spanCount * width)
  for (const span of spans) if (span.activation === "tanh") isValue.fill(1, span.offset, span.offset + span.width)
  softmaxSpans.forEach((span, s) => {
    for (let j = span.offset; j < span.offset + span.width; j++) {
      toSpans[j * spanCount + s] = 1
      fromSpans[s * width + j] = 1
    }
  })
  const offsets = Int32Array.from(softmaxSpans, (span) => span.offset)
  const widths = Int32Array.from(softmaxSpans, (span) => span.width)
  /** Per discrete column of the condition space, the index of its span among the softmax spans. */
  const conditionSpans = space.columns.map(({ offset }) => softmaxSpans.findIndex((span) => span.offset === offset))
  const valueMask = tf.tensor1d(isValue)
  const softmaxMask = tf.tensor1d(isValue.map((value) => 1 - value))
  const toSpansTensor = tf.tensor2d(toSpans, [width, spanCount])
  const fromSpansTensor = tf.tensor2d(fromSpans, [spanCount, width])

  /** Writes each softmax span's row maximum of `values` over the span's entries of `into`. */
  const spanMaxima = (values: Float32Array, rows: number, into: Float32Array) => {
    for (let row = 0; row < rows; row++) {
      const base = row * width
      for (let s = 0; s < offsets.length; s++) {
        const start = base + offsets[s]!
        const end = start + widths[s]!
        let largest = values[start]!
        for (let j = start + 1; j < end; j++) if (values[j]! > largest) largest = values[j]!
        into.fill(largest, start, end)
      }
    }
  }

  const activate = (raw: tf.Tensor2D, gumbel: Float32Array): tf.Tensor2D => {
    const rows = raw.shape[0]
    const output = raw.dataSync() as Float32Array
    // Exponent (raw + g) / τ − max over the span; at tanh entries 0 (raw/τ − raw/τ), which the indicator leaves out.
    const perturbed = new Float32Array(rows * width)
    for (let i = 0; i < perturbed.length; i++) perturbed[i] = (output[i]! + gumbel[i]!) / GUMBEL_TEMPERATURE
    const maxima = new Float32Array(rows * width)
    spanMaxima(perturbed, rows, maxima)
    const offset = new Float32Array(rows * width)
    for (let i = 0; i < offset.length; i++) {
      offset[i] = isValue[i % width] === 1 ? -output[i]! / GUMBEL_TEMPERATURE : gumbel[i]! / GUMBEL_TEMPERATURE - maxima[i]!
    }
    const exponentials = tf.exp(tf.add(tf.mul(raw, 1 / GUMBEL_TEMPERATURE), tf.tensor2d(offset, [rows, width])))
    // Each entry's span sum; 1 at tanh entries, so the division stays finite where the mask then drops it.
    const sums = tf.add(tf.matMul(tf.matMul(exponentials, toSpansTensor), fromSpansTensor), valueMask)
    return tf.add(tf.mul(tf.tanh(raw), valueMask), tf.mul(tf.div(exponentials, sums), softmaxMask))
  }

  const conditionLoss = (raw: tf.Tensor2D, conditions: Conditions): tf.Scalar => {
    const rows = raw.shape[0]
    if (space.columns.length === 0) return tf.scalar(0)
    const output = raw.dataSync() as Float32Array
    const shift = Float32Array.from(output.subarray(0, rows * width))
    spanMaxima(output, rows, shift)
    const target = new Float32Array(rows * width)
    const chosenSpan = new Float32Array(rows * spanCount)
    for (let row = 0; row < rows; row++) {
      const column = conditions.columns[row]!
      target[row * width + space.columns[column]!.offset + conditions.slots[row]!] = 1
      chosenSpan[row * spanCount + conditionSpans[column]!] = 1
    }
    // Cross-entropy = log Σ_span e^(r − m) − (r − m) at the target, m the span's row maximum.
    const shifted = tf.sub(raw, tf.tensor2d(shift, [rows, width]))
    const logSums = tf.log(tf.matMul(tf.exp(shifted), toSpansTensor))
    const total = tf.sub(tf.sum(tf.mul(logSums, tf.tensor2d(chosenSpan, [rows, spanCount]))), tf.sum(tf.mul(shifted, tf.tensor2d(target, [rows, width]))))
    return tf.div(total, rows)
  }

  return {
    activate,
    conditionLoss,
    dispose: () => {
      for (const tensor of [valueMask, softmaxMask, toSpansTensor, fromSpansTensor]) tensor.dispose()
    }
  }
}
