/**
 * DP-SGD's clipped gradient sum for the direct critic (directCritic.ts `crossEntropyPass`), the computation
 * perSampleClipping.ts makes in tfjs, on the critic's flat buffers; and its noise, as dpCtganStep.ts adds it.
 *
 * Why no per-sample gradient is ever built ("ghost norms"): for a dense layer z = a·W + b, sample i's gradient is
 * the outer product aᵢᵀ·δᵢ for W and δᵢ for b, so its squared norm is ‖aᵢ‖²·‖δᵢ‖² + ‖δᵢ‖², from two row norms. The
 * forward pass keeps every layer's input rows A and the backward pass, run without summing over the rows, every
 * layer's error rows Δ; over all layers that gives each sample's whole-gradient norm ‖gᵢ‖ (flat clipping, as
 * Opacus) in O(rows × widths) loops. The factors cᵢ = min(1, C / (‖gᵢ‖ + 1e-6)) (Opacus's) then scale the rows of Δ,
 * and one product per layer, Aᵀ·(c ∘ Δ), gives the sum of the clipped weight gradients: the same product the
 * non-private step runs for its summed gradient. A loop of B backward passes, or B materialised outer products
 * (B × 100k floats at telco's width), is what this avoids.
 */
import type { Random } from "../../../random.ts"
import type { PerSampleSignals } from "./directCritic.ts"
import { columnSums, type DenseView, type Multiply } from "./matrices.ts"

/** Σᵢ cᵢ·gᵢ into `gradients` (one view per layer, as `signals`); scales the signals' δ rows in place. */
export const clipAndSum = (
  signals: PerSampleSignals,
  rows: number,
  maxGradNorm: number,
  multiply: Multiply,
  gradients: ReadonlyArray<DenseView>,
  squaredNorms: Float64Array
): void => {
  const { deltas, inputs, layerInputs, outputs } = signals
  squaredNorms.fill(0, 0, rows)
  for (let l = 0; l < gradients.length; l++) {
    const a = layerInputs[l]!
    const delta = deltas[l]!
    const width = inputs[l]!
    const size = outputs[l]!
    for (let row = 0; row < rows; row++) {
      let inputSquares = 0
      for (let k = 0, at = row * width; k < width; k++, at++) inputSquares += a[at]! * a[at]!
      let deltaSquares = 0
      for (let k = 0, at = row * size; k < size; k++, at++) deltaSquares += delta[at]! * delta[at]!
      squaredNorms[row] = squaredNorms[row]! + (inputSquares + 1) * deltaSquares
    }
  }
  for (let row = 0; row < rows; row++) {
    const factor = Math.min(1, maxGradNorm / (Math.sqrt(squaredNorms[row]!) + 1e-6))
    for (let l = 0; l < gradients.length; l++) {
      const delta = deltas[l]!
      const size = outputs[l]!
      for (let k = 0, at = row * size; k < size; k++, at++) delta[at] = delta[at]! * factor
    }
  }
  for (let l = 0; l < gradients.length; l++) {
    const layer = gradients[l]!
    const width = inputs[l]!
    const size = outputs[l]!
    multiply(layerInputs[l]!, true, deltas[l]!, false, { m: width, k: rows, n: size }, layer.weight)
    columnSums(deltas[l]!, size, 0, rows, layer.bias)
  }
}

/**
 * (Σ clipped + noise) / expected batch size in place, noise N(0, deviation²) per coordinate drawn with Random.normal
 * in order: the tfjs step's draws and float32 arithmetic (gaussians, then tf.add and tf.div), so the two agree.
 */
export const addNoiseAndAverage = (gradients: Float32Array, deviation: number, expectedBatch: number, random: Random): void => {
  for (let k = 0; k < gradients.length; k++) {
    gradients[k] = Math.fround(gradients[k]! + Math.fround(random.normal() * deviation)) / expectedBatch
  }
}
