/**
 * TVAE's update computed directly, as the direct CTGAN step is (ctgan/direct/directStep.ts, which says why): the
 * encoder, reparameterisation, decoder and SDV's loss (loss.ts) forward and backward on flat arrays, products on ONNX
 * Runtime, Adam in one loop, σ clamped to [0.01, 1] after each update. The same draws as tvaeTraining.ts's tfjs
 * update (each batch's modes, then its ε), so a seed gives the same batches; directTvae.unit.spec.ts checks the
 * gradients against tfjs's automatic ones.
 *
 * With n rows, t = tanh(r) at value outputs and p = the softmax of each categorical span:
 *   ∂r = f/n · (t − x)(1 − t²)/σ²  at values,   f/n · (p − x)  in spans       (f: the loss factor)
 *   ∂σ = f/n · (n/σ − Σ_rows (x − t)²/σ³)  at values, 0 elsewhere
 *   ∂μ = μ/n + ∂z,   ∂logvar = (e^logvar − 1)/(2n) + ∂z · ε · e^(logvar/2) / 2
 */
import type { Random } from "../../../random.ts"
import type { SynthTable } from "../../../table.ts"
import type { Span, TableTransformer } from "../../../transform/index.ts"
import { columnSums, type DenseView, type Products, viewReader } from "../../ctgan/direct/matrices.ts"
import { readWeights, writeWeights } from "../../parallel/weights.ts"
import { type FlatAdam, makeFlatAdam } from "../../tf/flatAdam.ts"
import { SIGMA_MAX, SIGMA_MIN } from "../network.ts"
import type { TvaeSettings } from "../options.ts"
import type { TvaeNetworks } from "../tvaeTraining.ts"

export interface TvaeSync {
  /** Averages the update's gradients with the other thread's, with each thread's share of the batch. */
  readonly average: (gradients: Float32Array) => void
}

export interface DirectTvaeUpdate {
  readonly step: (rows: Int32Array) => number
  readonly stepWithoutRows: () => void
  /** Writes the trained weights into the tfjs networks; call after the last update. */
  readonly settle: () => void
}

interface Layout {
  readonly encoder: ReadonlyArray<DenseView>
  readonly mean: DenseView
  readonly logVariance: DenseView
  readonly decoder: ReadonlyArray<DenseView>
  readonly output: DenseView
  readonly sigma: Float32Array
}

/** Views in the order of TvaeNetworks.variables: encoder layers, μ head, log-variance head, decoder layers, output, σ. */
const layoutOf = (flat: Float32Array, width: number, settings: TvaeSettings): Layout => {
  const reader = viewReader(flat)
  const stack = (inputs: number, sizes: ReadonlyArray<number>) => {
    let from = inputs
    return sizes.map((size) => {
      const layer = reader.dense(from, size)
      from = size
      return layer
    })
  }
  const encoder = stack(width, settings.compressDims)
  const feature = settings.compressDims.at(-1) ?? width
  const mean = reader.dense(feature, settings.embeddingDim)
  const logVariance = reader.dense(feature, settings.embeddingDim)
  const decoder = stack(settings.embeddingDim, settings.decompressDims)
  const output = reader.dense(settings.decompressDims.at(-1) ?? settings.embeddingDim, width)
  const sigma = reader.take(width)
  reader.finish()
  return { encoder, mean, logVariance, decoder, output, sigma }
}

/** A stack of Linear + ReLU layers with the activations kept for the backward pass. */
const reluStack = (layers: ReadonlyArray<DenseView>, inputWidth: number, maxRows: number, products: Products) => {
  const { multiply } = products
  const outputs = layers.map((layer) => new Float32Array(maxRows * layer.outputs))
  const gradients = layers.map((layer) => new Float32Array(maxRows * layer.outputs))
  const forward = (input: Float32Array, rows: number): Float32Array => {
    let x = input
    layers.forEach((layer, l) => {
      const out = outputs[l]!
      products.dense(layer, x, rows, out)
      for (let i = 0, count = rows * layer.outputs; i < count; i++) if (out[i]! < 0) out[i] = 0
      x = out
    })
    return x
  }
  /**
   * From ∂loss/∂(the last layer's output), already in `topGradient()`: the layers' gradients into `grads`, and
   * ∂loss/∂input into `inputGradient` when given.
   */
  const backward = (input: Float32Array, rows: number, grads: ReadonlyArray<DenseView>, inputGradient: Float32Array | null) => {
    for (let l = layers.length - 1; l >= 0; l--) {
      const layer = layers[l]!
      const out = outputs[l]!
      const delta = gradients[l]!
      for (let i = 0, count = rows * layer.outputs; i < count; i++) if (out[i]! <= 0) delta[i] = 0
      const below = l === 0 ? input : outputs[l - 1]!
      multiply(below, true, delta, false, { m: layer.inputs, k: rows, n: layer.outputs }, grads[l]!.weight)
      columnSums(delta, layer.outputs, 0, rows, grads[l]!.bias)
      const into = l === 0 ? inputGradient : gradients[l - 1]!
      if (into !== null) multiply(delta, false, layer.weight, true, { m: rows, k: layer.outputs, n: layer.inputs }, into)
    }
  }
  const last = () => outputs.at(-1) ?? null
  const topGradient = () => gradients.at(-1) ?? null
  return { forward, backward, last, topGradient, inputWidth }
}

export const makeDirectTvaeUpdate = (
  table: SynthTable,
  transformer: TableTransformer,
  networks: TvaeNetworks,
  settings: TvaeSettings,
  streams: { readonly encode: Random; readonly noise: Random },
  products: Products,
  sync: TvaeSync | null
): DirectTvaeUpdate => {
  if (settings.compressDims.length === 0 || settings.decompressDims.length === 0) {
    throw new RangeError("the direct TVAE update needs at least one hidden layer in the encoder and the decoder")
  }
  const { multiply } = products
  const { batchSize, embeddingDim, lossFactor } = settings
  const width = transformer.width
  const maxRows = Math.min(batchSize, table.rowCount)
  const parameters = readWeights(networks.variables)
  const gradients = new Float32Array(parameters.length)
  const weights = layoutOf(parameters, width, settings)
  const grads = layoutOf(gradients, width, settings)
  const adam: FlatAdam = makeFlatAdam(parameters.length, { learningRate: 1e-3, beta1: 0.9, beta2: 0.999, weightDecay: 1e-5 })
  const encoder = reluStack(weights.encoder, width, maxRows, products)
  const decoder = reluStack(weights.decoder, embeddingDim, maxRows, products)
  const isValue = Uint8Array.from({ length: width }, () => 0)
  const softmaxSpans: Array<Span> = []
  for (const span of transformer.spans) {
    if (span.activation === "tanh") isValue.fill(1, span.offset, span.offset + span.width)
    else softmaxSpans.push(span)
  }
  const x = new Float32Array(maxRows * width)
  const epsilon = new Float32Array(maxRows * embeddingDim)
  const mean = new Float32Array(maxRows * embeddingDim)
  const logVariance = new Float32Array(maxRows * embeddingDim)
  const z = new Float32Array(maxRows * embeddingDim)
  const zGradient = new Float32Array(maxRows * embeddingDim)
  const meanGradient = new Float32Array(maxRows * embeddingDim)
  const logVarianceGradient = new Float32Array(maxRows * embeddingDim)
  const reconstruction = new Float32Array(maxRows * width)
  const reconstructionGradient = new Float32Array(maxRows * width)
  const sigmaSquaredErrors = new Float64Array(width)

  /** Adds a · bᵀ-style head gradient: ∂feature += ∂head · W_headᵀ. */
  const featureGradient = encoder.topGradient()!
  const headBack = new Float32Array(maxRows * (settings.compressDims.at(-1) ?? width))

  /** The batch's loss; every gradient into `gradients`. */
  const lossAndGradients = (rows: number): number => {
    // Encoder, heads, reparameterisation, decoder.
    const feature = encoder.forward(x, rows)
    products.dense(weights.mean, feature, rows, mean)
    products.dense(weights.logVariance, feature, rows, logVariance)
    for (let i = 0, count = rows * embeddingDim; i < count; i++) z[i] = mean[i]! + epsilon[i]! * Math.exp(logVariance[i]! / 2)
    const decoded = decoder.forward(z, rows)
    products.dense(weights.output, decoded, rows, reconstruction)

    // The loss and ∂loss/∂reconstruction, ∂loss/∂σ.
    const scale = lossFactor / rows
    const { sigma } = weights
    let reconstructionLoss = 0
    sigmaSquaredErrors.fill(0)
    for (let row = 0; row < rows; row++) {
      const base = row * width
      for (let j = 0; j < width; j++) {
        if (isValue[j] !== 1) continue
        const t = Math.tanh(reconstruction[base + j]!)
        const error = x[base + j]! - t
        const variance = sigma[j]! * sigma[j]!
        reconstructionLoss += (error * error) / (2 * variance)
        sigmaSquaredErrors[j] = sigmaSquaredErrors[j]! + error * error
        reconstructionGradient[base + j] = (scale * -error * (1 - t * t)) / variance
      }
      for (const { offset, width: size } of softmaxSpans) {
        const start = base + offset
        const end = start + size
        let largest = -Infinity
        for (let j = start; j < end; j++) if (reconstruction[j]! > largest) largest = reconstruction[j]!
        let sum = 0
        for (let j = start; j < end; j++) sum += Math.exp(reconstruction[j]! - largest)
        reconstructionLoss += Math.log(sum)
        for (let j = start; j < end; j++) {
          reconstructionLoss -= x[j]! * (reconstruction[j]! - largest)
          reconstructionGradient[j] = scale * (Math.exp(reconstruction[j]! - largest) / sum - x[j]!)
        }
      }
    }
    for (let j = 0; j < width; j++) {
      if (isValue[j] === 1) {
        const s = sigma[j]!
        reconstructionLoss += rows * Math.log(s)
        grads.sigma[j] = scale * (rows / s - sigmaSquaredErrors[j]! / (s * s * s))
      } else {
        grads.sigma[j] = 0
      }
    }
    let divergence = 0
    for (let i = 0, count = rows * embeddingDim; i < count; i++) {
      const variance = Math.exp(logVariance[i]!)
      divergence += 1 + logVariance[i]! - mean[i]! * mean[i]! - variance
    }

    // Backward: decoder, then the reparameterisation and the divergence, then the heads and the encoder.
    const outputInput = decoded
    multiply(outputInput, true, reconstructionGradient, false, { m: weights.output.inputs, k: rows, n: width }, grads.output.weight)
    columnSums(reconstructionGradient, width, 0, rows, grads.output.bias)
    multiply(reconstructionGradient, false, weights.output.weight, true, { m: rows, k: width, n: weights.output.inputs }, decoder.topGradient()!)
    decoder.backward(z, rows, grads.decoder, zGradient)
    for (let i = 0, count = rows * embeddingDim; i < count; i++) {
      const spread = Math.exp(logVariance[i]! / 2)
      meanGradient[i] = mean[i]! / rows + zGradient[i]!
      logVarianceGradient[i] = (spread * spread - 1) / (2 * rows) + (zGradient[i]! * epsilon[i]! * spread) / 2
    }
    const featureWidth = weights.mean.inputs
    multiply(feature, true, meanGradient, false, { m: featureWidth, k: rows, n: embeddingDim }, grads.mean.weight)
    columnSums(meanGradient, embeddingDim, 0, rows, grads.mean.bias)
    multiply(feature, true, logVarianceGradient, false, { m: featureWidth, k: rows, n: embeddingDim }, grads.logVariance.weight)
    columnSums(logVarianceGradient, embeddingDim, 0, rows, grads.logVariance.bias)
    multiply(meanGradient, false, weights.mean.weight, true, { m: rows, k: embeddingDim, n: featureWidth }, featureGradient)
    multiply(logVarianceGradient, false, weights.logVariance.weight, true, { m: rows, k: embeddingDim, n: featureWidth }, headBack)
    for (let i = 0, count = rows * featureWidth; i < count; i++) featureGradient[i] = featureGradient[i]! + headBack[i]!
    encoder.backward(x, rows, grads.encoder, null)
    return scale * reconstructionLoss - divergence / (2 * rows)
  }

  const update = () => {
    sync?.average(gradients)
    adam.step(parameters, gradients)
    const { sigma } = weights
    for (let j = 0; j < width; j++) sigma[j] = Math.min(Math.max(sigma[j]!, SIGMA_MIN), SIGMA_MAX)
  }

  const step = (rows: Int32Array): number => {
    const count = rows.length
    transformer.encode(table, rows, streams.encode, x.subarray(0, count * width))
    for (let i = 0; i < count * embeddingDim; i++) epsilon[i] = streams.noise.normal()
    const loss = lossAndGradients(count)
    update()
    return loss
  }

  const stepWithoutRows = () => {
    gradients.fill(0)
    update()
  }

  return { step, stepWithoutRows, settle: () => writeWeights(networks.variables, parameters) }
}
