/**
 * The pieces of a TVAE training every thread of it builds alike: the encoder and decoder with their Adam (lr 1e-3,
 * β (0.9, 0.999), L2 weight decay 1e-5 on every parameter), and the update on a set of rows: encode them →
 * reparameterise (μ + ε·e^(logvar/2)) → decode → loss → one optimiser step → σ clamped to [0.01, 1].
 */
import * as tf from "@tensorflow/tfjs"
import type { Random } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import type { TableTransformer } from "../../transform/index.ts"
import type { GradientExchange } from "../parallel/gradientExchange.ts"
import { syncedOptimizer } from "../parallel/syncedOptimizer.ts"
import { type Adam, makeAdam } from "../tf/adam.ts"
import { loadNativeGemm } from "../tf/native/nativeGemm.ts"
import { productsOf } from "../ctgan/direct/matrices.ts"
import { fillStandardNormals } from "../ctgan/noise.ts"
import { makeDirectTvaeUpdate } from "./direct/directTvae.ts"
import { keepVariables } from "./keepVariables.ts"
import { makeTvaeLoss } from "./loss.ts"
import {
  applyDecoder,
  applyEncoder,
  type Decoder,
  decoderVariables,
  type Encoder,
  encoderVariables,
  makeDecoder,
  makeEncoder,
  SIGMA_MAX,
  SIGMA_MIN
} from "./network.ts"
import { TVAE_ADAM, type TvaeSettings } from "./options.ts"


export interface TvaeNetworks {
  readonly encoder: Encoder
  readonly decoder: Decoder
  readonly variables: ReadonlyArray<tf.Variable>
  readonly adam: Adam
}

export const makeTvaeNetworks = (width: number, settings: TvaeSettings, random: Random): TvaeNetworks =>
  keepVariables(() => {
    const encoder = makeEncoder(width, settings.compressDims, settings.embeddingDim, random.fork())
    const decoder = makeDecoder(settings.embeddingDim, settings.decompressDims, width, random.fork())
    const variables = [...encoderVariables(encoder), ...decoderVariables(decoder)]
    return { encoder, decoder, variables, adam: makeAdam(variables, TVAE_ADAM) }
  })

/** Frees the optimiser and the encoder, and the decoder too unless the trained model keeps it. */
export const disposeTvaeNetworks = (networks: TvaeNetworks, keepDecoder: boolean): void => {
  networks.adam.dispose()
  for (const variable of encoderVariables(networks.encoder)) variable.dispose()
  if (!keepDecoder) for (const variable of decoderVariables(networks.decoder)) variable.dispose()
}

/** The update of a training, bound to its optimiser: alone, or averaging with the other thread first. */
export interface TvaeUpdate {
  /** One update on these rows of the table (at least one); answers the batch's loss. */
  readonly step: (rows: Int32Array) => number
  /**
   * One update this thread has no rows for (zero gradients, weighted 0): a data-parallel peer meets the leader at a
   * batch of one row, which is the leader's alone.
   */
  readonly stepWithoutRows: () => void
  /** Leaves the trained weights in the tfjs networks; call after the last update. */
  readonly settle: () => void
  readonly dispose: () => void
  readonly engine: "direct" | "tfjs"
}

/** A data-parallel training's exchange, and each update's shares of its batch. */
export interface TvaeExchange {
  readonly exchange: GradientExchange
  readonly weights: () => readonly [number, number]
}

/**
 * The direct update (direct/directTvae.ts: hand-derived gradients, products on ONNX Runtime) wherever ONNX Runtime
 * loaded, else the tfjs update below; both threads of a training choose alike.
 */
export const makeTvaeUpdate = (
  table: SynthTable,
  transformer: TableTransformer,
  networks: TvaeNetworks,
  settings: TvaeSettings,
  streams: { readonly encode: Random; readonly noise: Random },
  parallel: TvaeExchange | null
): TvaeUpdate => {
  const native = loadNativeGemm()
  if (native._tag === "Loaded" && settings.compressDims.length > 0 && settings.decompressDims.length > 0) {
    const sync = parallel === null ? null : { average: (gradients: Float32Array) => parallel.exchange.average(gradients, parallel.weights()) }
    const direct = makeDirectTvaeUpdate(table, transformer, networks, settings, streams, productsOf(native.gemm), sync)
    return { ...direct, engine: "direct" }
  }
  const optimizer = parallel === null ? networks.adam : syncedOptimizer(networks.adam, parallel.exchange, networks.variables, parallel.weights)
  const update = makeTfjsTvaeUpdate(table, transformer, networks, settings, streams)
  return {
    step: (rows) => update.step(rows, optimizer),
    stepWithoutRows: () => update.stepWithoutRows(optimizer),
    settle: () => {},
    dispose: update.dispose,
    engine: "tfjs"
  }
}

/** TVAE's update through tfjs's automatic gradients, with the optimiser given at each call. */
export interface TfjsTvaeUpdate {
  readonly step: (rows: Int32Array, optimizer: Adam) => number
  readonly stepWithoutRows: (optimizer: Adam) => void
  readonly dispose: () => void
}

/** `encodeRandom` draws each value's mode as it is encoded, `noiseRandom` the reparameterisation's ε. */
export const makeTfjsTvaeUpdate = (
  table: SynthTable,
  transformer: TableTransformer,
  networks: TvaeNetworks,
  settings: TvaeSettings,
  streams: { readonly encode: Random; readonly noise: Random }
): TfjsTvaeUpdate => {
  const { batchSize, embeddingDim, lossFactor } = settings
  const width = transformer.width
  const loss = makeTvaeLoss(transformer.spans, width, lossFactor)
  const room = Math.min(batchSize, table.rowCount)
  const batch = new Float32Array(room * width)
  const epsilon = new Float32Array(room * embeddingDim)
  const { decoder, encoder, variables } = networks

  const step = (rows: Int32Array, optimizer: Adam): number => {
    const count = rows.length
    transformer.encode(table, rows, streams.encode, batch.subarray(0, count * width))
    return tf.tidy(() => {
      const x = tf.tensor2d(batch.subarray(0, count * width), [count, width])
      fillStandardNormals(epsilon.subarray(0, count * embeddingDim), streams.noise)
      const noise = tf.tensor2d(epsilon.subarray(0, count * embeddingDim), [count, embeddingDim])
      const { grads, value } = tf.variableGrads(() => {
        const { logVariance, mean } = applyEncoder(encoder, x)
        const embedding: tf.Tensor2D = tf.add(mean, tf.mul(noise, tf.exp(tf.mul(logVariance, 0.5))))
        return loss.compute({ x, reconstruction: applyDecoder(decoder, embedding), sigma: decoder.sigma, mean, logVariance })
      }, [...variables])
      optimizer.step(variables.map((variable) => grads[variable.name]!))
      clampSigma()
      return value.dataSync()[0]!
    })
  }
  const stepWithoutRows = (optimizer: Adam) =>
    tf.tidy(() => {
      optimizer.step(variables.map((variable) => tf.zerosLike(variable)))
      clampSigma()
    })
  const clampSigma = () => decoder.sigma.assign(tf.clipByValue(decoder.sigma, SIGMA_MIN, SIGMA_MAX))
  return { step, stepWithoutRows, dispose: loss.dispose }
}

/** The row order of one epoch: a uniform shuffle (Fisher–Yates), in place. */
export const shuffle = (order: Int32Array, random: Random): void => {
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.integer(i + 1)
    const swap = order[i]!
    order[i] = order[j]!
    order[j] = swap
  }
}
