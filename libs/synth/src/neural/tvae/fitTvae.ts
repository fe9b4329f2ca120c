/**
 * Trains a TVAE as SDV's `TVAE.fit` does (sdv-dev/CTGAN `ctgan/synthesizers/tvae.py`): every epoch a fresh shuffle
 * of the rows in batches of `batchSize`, the last one short (its DataLoader keeps it: drop_last=False); per batch,
 * encode → reparameterise (μ + ε·e^(logvar/2)) → decode → loss → one Adam step (lr 1e-3, β (0.9, 0.999), L2 weight
 * decay 1e-5 on every parameter) → σ clamped to [0.01, 1].
 *
 * One difference, for memory: SDV encodes the whole table once; our transformer encodes each batch as it is read
 * (a million-row table never becomes a million-row matrix), so the mode a value is encoded in is drawn again each
 * epoch from the same posterior.
 *
 * All randomness (weights, shuffles, mode draws, ε) comes from the seed; the wasm backend runs each step
 * deterministically, so a seed reproduces a training.
 */
import * as tf from "@tensorflow/tfjs"
import { makeRandom, type Random } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import { fitTableTransformer } from "../../transform/index.ts"
import { makeAdam } from "../tf/adam.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { keepVariables } from "./keepVariables.ts"
import { makeTvaeLoss } from "./loss.ts"
import { tvaeModelOf, type TvaeModel } from "./model.ts"
import { applyDecoder, applyEncoder, decoderVariables, encoderVariables, makeDecoder, makeEncoder, SIGMA_MAX, SIGMA_MIN } from "./network.ts"
import { type TvaeOptions, validTvaeOptions } from "./options.ts"

const ADAM = { learningRate: 1e-3, beta1: 0.9, beta2: 0.999, weightDecay: 1e-5 } as const

/** The row order of one epoch: a uniform shuffle (Fisher–Yates). */
const shuffled = (order: Int32Array, random: Random) => {
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.integer(i + 1)
    const swap = order[i]!
    order[i] = order[j]!
    order[j] = swap
  }
}

export const fitTvae = async (table: SynthTable, options: TvaeOptions): Promise<TvaeModel> => {
  await startWasmBackend()
  const settings = validTvaeOptions(table, options)
  const { batchSize, compressDims, decompressDims, embeddingDim, epochs, lossFactor } = settings
  const random = makeRandom(options.seed)
  const transformer = fitTableTransformer(table, { seed: random.integer(2 ** 32) })
  const width = transformer.width
  const { adam, decoder, encoder, variables } = keepVariables(() => {
    const encoder = makeEncoder(width, compressDims, embeddingDim, random.fork())
    const decoder = makeDecoder(embeddingDim, decompressDims, width, random.fork())
    const variables = [...encoderVariables(encoder), ...decoderVariables(decoder)]
    return { encoder, decoder, variables, adam: makeAdam(variables, ADAM) }
  })
  const loss = makeTvaeLoss(transformer.spans, width, lossFactor)
  const shuffleRandom = random.fork()
  const encodeRandom = random.fork()
  const noiseRandom = random.fork()

  const rows = table.rowCount
  const order = Int32Array.from({ length: rows }, (_, i) => i)
  const batch = new Float32Array(Math.min(batchSize, rows) * width)
  const epsilon = new Float32Array(Math.min(batchSize, rows) * embeddingDim)
  const stepsPerEpoch = Math.ceil(rows / batchSize)
  const lossHistory: Array<number> = []

  const step = (count: number): number =>
    tf.tidy(() => {
      const x = tf.tensor2d(batch.subarray(0, count * width), [count, width])
      for (let i = 0; i < count * embeddingDim; i++) epsilon[i] = noiseRandom.normal()
      const noise = tf.tensor2d(epsilon.subarray(0, count * embeddingDim), [count, embeddingDim])
      const { grads, value } = tf.variableGrads(() => {
        const { logVariance, mean } = applyEncoder(encoder, x)
        const embedding: tf.Tensor2D = tf.add(mean, tf.mul(noise, tf.exp(tf.mul(logVariance, 0.5))))
        return loss.compute({ x, reconstruction: applyDecoder(decoder, embedding), sigma: decoder.sigma, mean, logVariance })
      }, variables)
      adam.step(variables.map((variable) => grads[variable.name]!))
      decoder.sigma.assign(tf.clipByValue(decoder.sigma, SIGMA_MIN, SIGMA_MAX))
      return value.dataSync()[0]!
    })

  try {
    for (let epoch = 1; epoch <= epochs; epoch++) {
      shuffled(order, shuffleRandom)
      let lossSum = 0
      for (let stepIndex = 0; stepIndex < stepsPerEpoch; stepIndex++) {
        const start = stepIndex * batchSize
        const count = Math.min(batchSize, rows - start)
        transformer.encode(table, order.subarray(start, start + count), encodeRandom, batch.subarray(0, count * width))
        lossSum += step(count)
        options.onProgress?.(((epoch - 1) * stepsPerEpoch + stepIndex + 1) / (epochs * stepsPerEpoch))
      }
      const epochLoss = lossSum / stepsPerEpoch
      lossHistory.push(epochLoss)
      options.onEpoch?.(epoch, { loss: epochLoss })
    }
  } catch (error) {
    for (const variable of decoderVariables(decoder)) variable.dispose()
    throw error
  } finally {
    adam.dispose()
    loss.dispose()
    for (const variable of encoderVariables(encoder)) variable.dispose()
  }
  if (epochs === 0) options.onProgress?.(1)
  return tvaeModelOf({ decoder, transformer, embeddingDim, batchSize, lossHistory })
}
