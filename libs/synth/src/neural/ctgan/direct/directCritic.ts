/**
 * CTGAN's critic (discriminator.ts) computed directly on flat arrays: Linear → LeakyReLU(0.2) → dropout per hidden
 * layer, then a Linear to one score per pack, with hand-derived gradients, the gradient penalty's second-order part
 * included. Used by directStep.ts; discriminator.ts remains the definition, and directStep.unit.spec.ts checks these
 * gradients against tfjs's automatic ones.
 *
 * Why the second-order part is short: a layer's output is z ⊙ d, where d = mask ⊙ (1 where z > 0, else 0.2) is
 * piecewise constant, so d has no derivative. The input gradient of Σ D(x̂) is then a product of constant diagonal
 * and weight matrices, g = Δ₁·W₁ᵀ with Δ_L = d_L ⊙ w_o and Δ_{l−1} = (Δ_l·W_lᵀ) ⊙ d_{l−1}, and the penalty's
 * gradient goes back along that chain: with G = ∂P/∂g, F₀ = G and F_l = (F_{l−1}·W_l) ⊙ d_l,
 *   ∂P/∂W_l = F_{l−1}ᵀ·Δ_l,  ∂P/∂w_o = Σ_packs F_L,  and nothing for the biases.
 * Those have the same form as the first-order weight gradients (inputᵀ·Δ), so the three passes (real, fake,
 * interpolated packs) run as one stack of rows, the interpolates' inputs replaced by F after the forward pass: one
 * product per layer and direction for the whole critic loss.
 */
import { columnSums, type DenseView, type Products, viewReader } from "./matrices.ts"

const LEAKY_SLOPE = 0.2

/**
 * The generator's adversarial loss: CTGAN's −mean D, or DP-CTGAN's binary cross-entropy with target 1,
 * mean softplus(−D) (dpCtganStep.ts).
 */
export type AdversarialLoss = "wasserstein" | "crossEntropy"

/**
 * What a per-sample pass leaves for DP-SGD's clipping (directClipping.ts), per dense layer l (the hidden ones, then
 * the output): its input rows a_l (rows × inputs[l]) and its error signal rows δ_l = ∂ℓᵢ/∂z_l (rows × outputs[l]),
 * each row one sample's. Views into the critic's buffers: valid until its next call.
 */
export interface PerSampleSignals {
  readonly layerInputs: ReadonlyArray<Float32Array>
  readonly deltas: ReadonlyArray<Float32Array>
  readonly inputs: ReadonlyArray<number>
  readonly outputs: ReadonlyArray<number>
}

export interface DirectCriticShape {
  /** Packed input width: pac × (encoded row + conditional vector). */
  readonly inputs: number
  readonly hidden: ReadonlyArray<number>
  /** The most packs one call handles (three passes of a critic step). */
  readonly maxRows: number
}

export interface DirectCritic {
  /** Packed inputs, maxRows × inputs: fill rows before a call. */
  readonly input: Float32Array
  /** Dropout masks per hidden layer (maxRows × size, entries 0 or 2): fill rows before a call. */
  readonly masks: ReadonlyArray<Float32Array>
  /**
   * The critic loss's gradients into the gradient array given at construction, for `packs` real packs (input rows
   * 0 … packs − 1), as many generated (then) and their interpolates (last); answers the Wasserstein estimate
   * mean D(fake) − mean D(real) and the gradient penalty λ · mean (‖g‖ − 1)².
   */
  readonly criticGradients: (packs: number, penaltyWeight: number) => { readonly wasserstein: number; readonly penalty: number }
  /**
   * For a generator update: the gradient of −mean D over `packs` packs (input rows 0 … packs − 1) with respect to
   * the input, into `into` (packs × inputs); answers −mean D.
   */
  readonly generatorLossGradient: (packs: number, into: Float32Array, loss?: AdversarialLoss) => number
  /**
   * DP-CTGAN's per-sample pass (pac 1): forward over `rows` input rows, each sample's binary cross-entropy
   * softplus(signᵢ · Dᵢ) into `losses` (sign −1 for a real row, +1 for a generated one), and each sample's error
   * signals, with no sum over the rows.
   */
  readonly crossEntropyPass: (rows: number, signs: Float32Array, losses: Float32Array) => PerSampleSignals
  /** Views of the gradient array given at construction, per dense layer (the hidden ones, then the output). */
  readonly gradientLayers: ReadonlyArray<DenseView>
}

/** log(1 + eˣ) without overflow. */
export const softplus = (x: number): number => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)))

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x))

export const makeDirectCritic = (shape: DirectCriticShape, parameters: Float32Array, gradients: Float32Array, products: Products): DirectCritic => {
  const { multiply } = products
  const { hidden, inputs, maxRows } = shape
  const layout = (flat: Float32Array) => {
    const reader = viewReader(flat)
    let width = inputs
    const layers = hidden.map((size) => {
      const layer = reader.dense(width, size)
      width = size
      return layer
    })
    const output = reader.dense(width, 1)
    reader.finish()
    return { layers, output }
  }
  const weights = layout(parameters)
  const grads = layout(gradients)
  const depth = hidden.length
  const widths = [inputs, ...hidden]
  // activations[0] is the input; activations[l] layer l's output z ⊙ d; slopes[l − 1] its d; deltas[l − 1] its Δ.
  const activations = widths.map((width) => new Float32Array(maxRows * width))
  const masks = hidden.map((size) => new Float32Array(maxRows * size))
  const slopes = hidden.map((size) => new Float32Array(maxRows * size))
  const deltas = hidden.map((size) => new Float32Array(maxRows * size))
  const scores = new Float32Array(maxRows)
  const seeds = new Float32Array(maxRows)
  const rowsOf = (matrix: Float32Array, width: number, first: number, end: number) => matrix.subarray(first * width, end * width)

  const forward = (rows: number) => {
    for (let l = 0; l < depth; l++) {
      const out = activations[l + 1]!
      products.dense(weights.layers[l]!, activations[l]!, rows, out)
      const mask = masks[l]!
      const slope = slopes[l]!
      // Without a branch: z's sign is a coin flip per entry, and the mispredicted branch made this loop ~8× slower
      // (768,000 entries: 16 ms against 2 ms). 0.2 + 0.8 · [z > 0] is exactly 1 or 0.2.
      for (let i = 0, count = rows * hidden[l]!; i < count; i++) {
        const z = out[i]!
        const d = mask[i]! * (LEAKY_SLOPE + (1 - LEAKY_SLOPE) * +(z > 0))
        slope[i] = d
        out[i] = z * d
      }
    }
    const last = activations[depth]!
    const width = widths[depth]!
    const { bias, weight } = weights.output
    for (let row = 0; row < rows; row++) {
      let sum = bias[0]!
      for (let k = 0, at = row * width; k < width; k++, at++) sum += last[at]! * weight[k]!
      scores[row] = sum
    }
  }

  /** Δ for every layer from the seeds ∂loss/∂score (first-order backward pass down to the first layer's Δ). */
  const backward = (rows: number) => {
    const width = widths[depth]!
    const { weight } = weights.output
    const top = deltas[depth - 1]!
    const topSlope = slopes[depth - 1]!
    for (let row = 0; row < rows; row++) {
      const seed = seeds[row]!
      for (let k = 0, at = row * width; k < width; k++, at++) top[at] = seed * weight[k]! * topSlope[at]!
    }
    for (let l = depth - 1; l > 0; l--) {
      const below = deltas[l - 1]!
      multiply(deltas[l]!, false, weights.layers[l]!.weight, true, { m: rows, k: hidden[l]!, n: hidden[l - 1]! }, below)
      const slope = slopes[l - 1]!
      for (let i = 0, count = rows * hidden[l - 1]!; i < count; i++) below[i] = below[i]! * slope[i]!
    }
  }

  /** ∂/∂input of Σ seeds·scores for rows first … end − 1, into `into`. */
  const inputGradient = (first: number, end: number, into: Float32Array) => {
    const firstLayer: DenseView = weights.layers[0]!
    multiply(rowsOf(deltas[0]!, hidden[0]!, first, end), false, firstLayer.weight, true, { m: end - first, k: hidden[0]!, n: inputs }, into)
  }

  const criticGradients: DirectCritic["criticGradients"] = (packs, penaltyWeight) => {
    const rows = 3 * packs
    forward(rows)
    let real = 0
    let fake = 0
    for (let p = 0; p < packs; p++) {
      real += scores[p]!
      fake += scores[packs + p]!
    }
    seeds.fill(-1 / packs, 0, packs)
    seeds.fill(1 / packs, packs, 2 * packs)
    seeds.fill(1, 2 * packs, rows)
    backward(rows)
    // g, then G = ∂P/∂g, over the interpolates' input rows (their inputs are no longer needed).
    const g = rowsOf(activations[0]!, inputs, 2 * packs, rows)
    inputGradient(2 * packs, rows, g)
    let penalty = 0
    for (let p = 0; p < packs; p++) {
      const row = g.subarray(p * inputs, (p + 1) * inputs)
      let squares = 0
      for (let i = 0; i < inputs; i++) squares += row[i]! * row[i]!
      const norm = Math.sqrt(squares)
      penalty += (norm - 1) * (norm - 1)
      const scale = norm === 0 ? 0 : (2 * penaltyWeight * (norm - 1)) / (packs * norm)
      for (let i = 0; i < inputs; i++) row[i] = row[i]! * scale
    }
    // F_l = (F_{l−1}·W_l) ⊙ d_l, over the interpolates' rows of each layer's output.
    for (let l = 0; l < depth; l++) {
      const size = hidden[l]!
      const f = rowsOf(activations[l + 1]!, size, 2 * packs, rows)
      multiply(rowsOf(activations[l]!, widths[l]!, 2 * packs, rows), false, weights.layers[l]!.weight, false, { m: packs, k: widths[l]!, n: size }, f)
      const slope = rowsOf(slopes[l]!, size, 2 * packs, rows)
      for (let i = 0; i < f.length; i++) f[i] = f[i]! * slope[i]!
    }
    // Weights: inputᵀ·Δ over all rows (F in the interpolates' rows); biases: the real and generated rows only.
    for (let l = 0; l < depth; l++) {
      const layer = grads.layers[l]!
      multiply(activations[l]!.subarray(0, rows * widths[l]!), true, deltas[l]!.subarray(0, rows * hidden[l]!), false, {
        m: widths[l]!,
        k: rows,
        n: hidden[l]!
      }, layer.weight)
      columnSums(deltas[l]!, hidden[l]!, 0, 2 * packs, layer.bias)
    }
    const last = activations[depth]!
    const width = widths[depth]!
    const outputWeight = grads.output.weight
    outputWeight.fill(0)
    for (let row = 0; row < rows; row++) {
      const seed = seeds[row]!
      for (let k = 0, at = row * width; k < width; k++, at++) outputWeight[k] = outputWeight[k]! + last[at]! * seed
    }
    // Σ seeds over the real and generated rows: −1 + 1, zero up to rounding (the penalty has no bias gradient).
    let biasGradient = 0
    for (let row = 0; row < 2 * packs; row++) biasGradient += seeds[row]!
    grads.output.bias[0] = biasGradient
    return { wasserstein: (fake - real) / packs, penalty: (penaltyWeight * penalty) / packs }
  }

  const generatorLossGradient: DirectCritic["generatorLossGradient"] = (packs, into, loss = "wasserstein") => {
    forward(packs)
    let total = 0
    if (loss === "wasserstein") {
      for (let p = 0; p < packs; p++) total -= scores[p]!
      seeds.fill(-1 / packs, 0, packs)
    } else {
      // d softplus(−s)/ds = −sigmoid(−s).
      for (let p = 0; p < packs; p++) {
        total += softplus(-scores[p]!)
        seeds[p] = -sigmoid(-scores[p]!) / packs
      }
    }
    backward(packs)
    inputGradient(0, packs, into)
    return total / packs
  }

  const crossEntropyPass: DirectCritic["crossEntropyPass"] = (rows, signs, losses) => {
    forward(rows)
    for (let row = 0; row < rows; row++) {
      const signed = signs[row]! * scores[row]!
      losses[row] = softplus(signed)
      seeds[row] = signs[row]! * sigmoid(signed)
    }
    backward(rows)
    return { layerInputs: activations, deltas: [...deltas, seeds], inputs: widths, outputs: [...hidden, 1] }
  }

  return {
    input: activations[0]!,
    masks,
    criticGradients,
    generatorLossGradient,
    crossEntropyPass,
    gradientLayers: [...grads.layers, grads.output]
  }
}
