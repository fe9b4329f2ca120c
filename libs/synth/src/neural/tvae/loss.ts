/**
 * TVAE's training loss as SDV computes it (`_loss_function` in sdv-dev/CTGAN `tvae.py`), for one batch of n rows:
 *
 *   reconstruction = Σ over tanh outputs j, rows i: (x_ij − tanh(r_ij))² / (2σ_j²) + n·log σ_j
 *                  + Σ over softmax spans, rows: cross-entropy(r_span, argmax x_span)
 *   loss = lossFactor · reconstruction / n  +  KL(N(μ, e^logvar) ‖ N(0, I)) / n
 *
 * Laid out for tfjs's wasm backend (shared/design/ML-NOTES.md): no gather (its gradient crashes there), and no
 * split/concat either (measured on diamonds' 17 spans: splitting and concatenating a batch alone took 4–10 ms, and a
 * span-by-span log-softmax with its gradient cost more than both networks). Each softmax span's log-sum-exp comes from one product with a span indicator matrix instead:
 * log Σ_span e^(r − m) with m the span's largest entry per row, a constant found in JavaScript (the backend is
 * synchronous, so reading the output costs a copy), as it only keeps e^· in range and has no gradient. With a one-hot
 * target, the span's cross-entropy is then log Σ e^(r − m) − Σ x·(r − m). The tanh part works on whole rows through
 * a mask, as broadcasting is cheaper than slicing.
 */
import * as tf from "@tensorflow/tfjs"
import type { Span } from "../../transform/index.ts"

export interface TvaeLossInputs {
  /** The encoded batch, [n, width]. */
  readonly x: tf.Tensor2D
  /** The decoder's raw output for it, [n, width]. */
  readonly reconstruction: tf.Tensor2D
  /** The decoder's learned spreads, [width]. */
  readonly sigma: tf.Tensor1D
  readonly mean: tf.Tensor2D
  readonly logVariance: tf.Tensor2D
}

export interface TvaeLoss {
  /** The scalar loss of one batch (call inside tf.tidy or a gradient function). */
  readonly compute: (inputs: TvaeLossInputs) => tf.Scalar
  /** Frees the constant masks. */
  readonly dispose: () => void
}

/** The checks a span layout must pass for the split below to be right: in order, contiguous, covering the row. */
const assertContiguous = (spans: ReadonlyArray<Span>, width: number) => {
  let offset = 0
  for (const span of spans) {
    if (span.offset !== offset) throw new RangeError(`span at ${span.offset} does not follow the previous one (expected ${offset})`)
    if (span.activation === "tanh" && span.width !== 1) throw new RangeError(`a tanh span of width ${span.width}; TVAE expects 1`)
    offset += span.width
  }
  if (offset !== width) throw new RangeError(`the spans cover ${offset} of ${width} outputs`)
}

/** The softmax spans' offsets and widths, for the row loop that finds their maxima. */
interface SoftmaxLayout {
  readonly offsets: Int32Array
  readonly widths: Int32Array
}

/**
 * The shift subtracted from the output before exponentiating: at softmax outputs their span's largest entry in that
 * row, at tanh outputs the output itself (e^0, which the indicator matrix then leaves out).
 */
const shiftOf = (output: Float32Array, rows: number, width: number, layout: SoftmaxLayout, into: Float32Array): Float32Array => {
  into.set(output.subarray(0, rows * width))
  for (let row = 0; row < rows; row++) {
    const base = row * width
    for (let s = 0; s < layout.offsets.length; s++) {
      const start = base + layout.offsets[s]!
      const end = start + layout.widths[s]!
      let largest = output[start]!
      for (let j = start + 1; j < end; j++) if (output[j]! > largest) largest = output[j]!
      into.fill(largest, start, end)
    }
  }
  return into.subarray(0, rows * width)
}

export const makeTvaeLoss = (spans: ReadonlyArray<Span>, width: number, lossFactor: number): TvaeLoss => {
  assertContiguous(spans, width)
  const softmaxSpans = spans.filter((span) => span.activation === "softmax")
  const isValue = new Float32Array(width)
  const isCategory = new Float32Array(width)
  const indicator = new Float32Array(width * Math.max(1, softmaxSpans.length))
  for (const span of spans) (span.activation === "tanh" ? isValue : isCategory).fill(1, span.offset, span.offset + span.width)
  softmaxSpans.forEach((span, s) => {
    for (let j = span.offset; j < span.offset + span.width; j++) indicator[j * softmaxSpans.length + s] = 1
  })
  const layout: SoftmaxLayout = {
    offsets: Int32Array.from(softmaxSpans, (span) => span.offset),
    widths: Int32Array.from(softmaxSpans, (span) => span.width)
  }
  const valueMask = tf.tensor1d(isValue)
  const categoryMask = tf.tensor1d(isCategory)
  const spanIndicator = tf.tensor2d(indicator, [width, Math.max(1, softmaxSpans.length)])
  const hasValues = isValue.includes(1)
  let shift = new Float32Array(0)

  const compute = ({ x, reconstruction, sigma, mean, logVariance }: TvaeLossInputs): tf.Scalar => {
    const rows = x.shape[0]
    // Tanh outputs: Gaussian negative log-likelihood with the learned σ (masked to the value outputs).
    const valueTerm = hasValues
      ? tf.add(
          tf.sum(tf.mul(tf.square(tf.sub(x, tf.tanh(reconstruction))), tf.div(valueMask, tf.mul(2, tf.square(sigma))))),
          tf.mul(rows, tf.sum(tf.mul(valueMask, tf.log(sigma))))
        )
      : tf.scalar(0)
    if (shift.length < rows * width) shift = new Float32Array(rows * width)
    const shifted = tf.sub(reconstruction, tf.tensor2d(shiftOf(reconstruction.dataSync() as Float32Array, rows, width, layout, shift), [rows, width]))
    const crossEntropy =
      softmaxSpans.length === 0
        ? tf.scalar(0)
        : tf.sub(tf.sum(tf.log(tf.matMul(tf.exp(shifted), spanIndicator))), tf.sum(tf.mul(tf.mul(x, categoryMask), shifted)))
    const reconstructionLoss = tf.mul(tf.add(valueTerm, crossEntropy), lossFactor / rows)
    const divergence = tf.mul(
      tf.sum(tf.sub(tf.add(1, logVariance), tf.add(tf.square(mean), tf.exp(logVariance)))),
      -0.5 / rows
    )
    return tf.add(reconstructionLoss, divergence) as tf.Scalar
  }

  return {
    compute,
    dispose: () => {
      valueMask.dispose()
      categoryMask.dispose()
      spanIndicator.dispose()
    }
  }
}
