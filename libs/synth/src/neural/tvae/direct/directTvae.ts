/**
 * TVAE's update computed directly, as the direct CTGAN step is (ctgan/direct/directStep.ts, which says why): the
 * encoder, reparameterisation, decoder and SDV's loss (loss.ts) forward and backward with hand-derived gradients, as
 * two ONNX Runtime graphs (tvaeGraphs.ts) over flat parameters, Adam in one loop, σ clamped to [0.01, 1] after each
 * update. The same draws as tvaeTraining.ts's tfjs
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
import type { TableTransformer } from "../../../transform/index.ts"
import { type Products, viewReader } from "../../ctgan/direct/matrices.ts"
import { readWeights, writeWeights } from "../../parallel/weights.ts"
import { type FlatAdam, makeFlatAdam } from "../../tf/flatAdam.ts"
import { fillStandardNormals } from "../../ctgan/noise.ts"
import { SIGMA_MAX, SIGMA_MIN } from "../network.ts"
import { TVAE_ADAM, type TvaeSettings } from "../options.ts"
import type { TvaeNetworks } from "../tvaeTraining.ts"
import { tvaeBackwardModel, tvaeDenseLayers, tvaeForwardModel } from "./tvaeGraphs.ts"

export interface TvaeSync {
  /** Averages the update's gradients with the other thread's, with each thread's share of the batch. */
  readonly average: (gradients: Float32Array) => void
}

export interface DirectTvaeUpdate {
  readonly step: (rows: Int32Array) => number
  readonly stepWithoutRows: () => void
  /** Writes the trained weights into the tfjs networks; call after the last update. */
  readonly settle: () => void
  /** Releases the ONNX Runtime sessions. */
  readonly dispose: () => void
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
  const { batchSize, compressDims, decompressDims, embeddingDim, lossFactor } = settings
  const width = transformer.width
  const maxRows = Math.min(batchSize, table.rowCount)
  const parameters = readWeights(networks.variables)
  const gradients = new Float32Array(parameters.length)
  const adam: FlatAdam = makeFlatAdam(parameters.length, TVAE_ADAM)
  const layerShape = { width, embedding: embeddingDim, compress: compressDims, decompress: decompressDims }
  const denseLayers = tvaeDenseLayers(layerShape)
  /** Views of `flat` in the order of TvaeNetworks.variables: the dense layers, then σ. */
  const layoutOf = (flat: Float32Array) => {
    const reader = viewReader(flat)
    const dense = denseLayers.map(({ inputs, outputs }) => reader.dense(inputs, outputs))
    const sigma = reader.take(width)
    reader.finish()
    return { dense, sigma }
  }
  const weights = layoutOf(parameters)
  const grads = layoutOf(gradients)

  const softmaxSpans = transformer.spans.filter((span) => span.activation === "softmax")
  const spanCount = Math.max(1, softmaxSpans.length)
  const valueMask = new Float32Array(width)
  const categoryMask = new Float32Array(width)
  const indicator = new Float32Array(width * spanCount)
  const indicatorT = new Float32Array(spanCount * width)
  for (const span of transformer.spans) (span.activation === "tanh" ? valueMask : categoryMask).fill(1, span.offset, span.offset + span.width)
  softmaxSpans.forEach(({ offset, width: size }, s) => {
    for (let j = offset; j < offset + size; j++) {
      indicator[j * spanCount + s] = 1
      indicatorT[s * width + j] = 1
    }
  })
  // Without categorical spans the indicator's one column is all zeros; log(0 + 1) keeps the cross-entropy at 0.
  const spanPad = new Float32Array(spanCount).fill(softmaxSpans.length === 0 ? 1 : 0)
  const shape = { ...layerShape, spans: spanCount }
  const forwardSession = products.session(tvaeForwardModel(shape))
  const backwardSession = products.session(tvaeBackwardModel(shape))

  const x = new Float32Array(maxRows * width)
  const epsilon = new Float32Array(maxRows * embeddingDim)
  const encoded = compressDims.map((size) => new Float32Array(maxRows * size))
  const decoded = decompressDims.map((size) => new Float32Array(maxRows * size))
  const mean = new Float32Array(maxRows * embeddingDim)
  const logVariance = new Float32Array(maxRows * embeddingDim)
  const z = new Float32Array(maxRows * embeddingDim)
  const reconstruction = new Float32Array(maxRows * width)
  const shift = new Float32Array(maxRows * width)
  const loss = new Float32Array(1)
  const constants = {
    half: Float32Array.of(0.5),
    one: Float32Array.of(1),
    zero: Float32Array.of(0),
    scale: new Float32Array(1),
    rowsInverse: new Float32Array(1),
    halfRowsInverse: new Float32Array(1),
    rowCount: new Float32Array(1)
  }

  const rowsOf = (data: Float32Array, rows: number, columns: number) => ({ data: data.subarray(0, rows * columns), dims: [rows, columns] })
  const fixed = (data: Float32Array | BigInt64Array, ...dims: Array<number>) => ({ data, dims })
  // The parameters and gradients are updated in place, so their feeds are built once.
  const parameterFeeds = Object.fromEntries(denseLayers.flatMap(({ names }, i) => {
    const { bias, inputs, outputs, weight } = weights.dense[i]!
    return [[names.weight, fixed(weight, inputs, outputs)], [names.bias, fixed(bias, outputs)]]
  }))
  const gradientOutputs = {
    ...Object.fromEntries(denseLayers.flatMap(({ names }, i) => {
      const { bias, inputs, outputs, weight } = grads.dense[i]!
      return [[names.weightGradient, fixed(weight, inputs, outputs)], [names.biasGradient, fixed(bias, outputs)]]
    })),
    sigmaGradient: fixed(grads.sigma, width),
    loss: fixed(loss, 1)
  }
  const constantFeeds = {
    sigma: fixed(weights.sigma, width),
    valueMask: fixed(valueMask, width),
    categoryMask: fixed(categoryMask, width),
    indicator: fixed(indicator, width, spanCount),
    indicatorT: fixed(indicatorT, spanCount, width),
    spanPad: fixed(spanPad, spanCount),
    ...Object.fromEntries(Object.entries(constants).map(([name, data]) => [name, fixed(data, 1)])),
    rowsAxis: fixed(BigInt64Array.of(0n), 1),
    ...parameterFeeds
  }
  const activations = (rows: number) => ({
    ...Object.fromEntries(compressDims.map((size, l) => [`enc${l}`, rowsOf(encoded[l]!, rows, size)])),
    mean: rowsOf(mean, rows, embeddingDim),
    logVariance: rowsOf(logVariance, rows, embeddingDim),
    z: rowsOf(z, rows, embeddingDim),
    ...Object.fromEntries(decompressDims.map((size, l) => [`dec${l}`, rowsOf(decoded[l]!, rows, size)])),
    reconstruction: rowsOf(reconstruction, rows, width)
  })

  /** Each softmax entry's span maximum in its row, and the output itself at value entries (so e^0 there). */
  const findShift = (rows: number) => {
    shift.set(reconstruction.subarray(0, rows * width))
    for (let row = 0; row < rows; row++) {
      const base = row * width
      for (const { offset, width: size } of softmaxSpans) {
        const start = base + offset
        let largest = reconstruction[start]!
        for (let j = start + 1; j < start + size; j++) if (reconstruction[j]! > largest) largest = reconstruction[j]!
        shift.fill(largest, start, start + size)
      }
    }
  }

  /** The batch's loss; every gradient into `gradients`. */
  const lossAndGradients = (rows: number): number => {
    forwardSession.run({ x: rowsOf(x, rows, width), eps: rowsOf(epsilon, rows, embeddingDim), half: fixed(constants.half, 1), ...parameterFeeds }, activations(rows))
    findShift(rows)
    constants.scale[0] = lossFactor / rows
    constants.rowsInverse[0] = 1 / rows
    constants.halfRowsInverse[0] = 1 / (2 * rows)
    constants.rowCount[0] = rows
    backwardSession.run({
      ...activations(rows),
      x: rowsOf(x, rows, width),
      eps: rowsOf(epsilon, rows, embeddingDim),
      shift: rowsOf(shift, rows, width),
      ...constantFeeds
    }, gradientOutputs)
    return loss[0]!
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
    fillStandardNormals(epsilon.subarray(0, count * embeddingDim), streams.noise)
    const loss = lossAndGradients(count)
    update()
    return loss
  }

  const stepWithoutRows = () => {
    gradients.fill(0)
    update()
  }

  return {
    step,
    stepWithoutRows,
    settle: () => writeWeights(networks.variables, parameters),
    dispose: () => {
      forwardSession.dispose()
      backwardSession.dispose()
    }
  }
}
