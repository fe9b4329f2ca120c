/**
 * Trains a TVAE as SDV's `TVAE.fit` does (sdv-dev/CTGAN `ctgan/synthesizers/tvae.py`): every epoch a fresh shuffle
 * of the rows in batches of `batchSize`, the last one short; per batch one update (tvaeTraining.ts).
 *
 * One difference, for memory: SDV encodes the whole table once; our transformer encodes each batch as it is read
 * (a million-row table never becomes a million-row matrix), so the mode a value is encoded in is drawn again each
 * epoch from the same posterior.
 *
 * With `threads: 2` a peer thread learns from part of every batch (tvaeSchedule.ts) and the two average their
 * gradients before each update (data parallelism; both replicas stay identical, checked at the end).
 *
 * All randomness (weights, shuffles, mode draws, ε) comes from the seed; the wasm backend runs each step
 * deterministically, so a seed reproduces a training for the same thread count.
 */
import { makeRandom } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import { fitTableTransformer } from "../../transform/index.ts"
import { type GradientExchange, gradientExchange, makeExchangeMemory } from "../parallel/gradientExchange.ts"
import { bootPeer, confirmReplicas, type Peer, type PeerBoot } from "../parallel/startPeer.ts"
import { parameterCount } from "../parallel/syncedOptimizer.ts"
import { readWeights } from "../parallel/weights.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { tvaeModelOf, type TvaeModel } from "./model.ts"
import { decoderVariables } from "./network.ts"
import { type TvaeOptions, type TvaeSettings, validTvaeOptions } from "./options.ts"
import { disposeTvaeNetworks, makeTvaeNetworks, makeTvaeUpdate, shuffle, type TvaeUpdate } from "./tvaeTraining.ts"
import { type BatchShare, batchesPerEpoch, epochShares } from "./tvaeSchedule.ts"

export const fitTvae = async (table: SynthTable, options: TvaeOptions): Promise<TvaeModel> => {
  const settings = validTvaeOptions(table, options)
  // With two threads the peer boots (modules, tfjs, ONNX Runtime) while this thread fits the transformer.
  const boot = options.threads === 2 && Math.min(settings.batchSize, table.rowCount) >= 2 ? bootPeer() : null
  try {
    return await train(table, options, settings, boot)
  } finally {
    boot?.stop()
  }
}

const train = async (table: SynthTable, options: TvaeOptions, settings: TvaeSettings, boot: PeerBoot | null): Promise<TvaeModel> => {
  await startWasmBackend()
  const { batchSize, epochs } = settings
  const random = makeRandom(options.seed)
  const transformer = fitTableTransformer(table, { seed: random.integer(2 ** 32) })
  const networks = makeTvaeNetworks(transformer.width, settings, random)
  let shuffleRandom = random.fork()
  const streams = { encode: random.fork(), noise: random.fork() }

  const parallel = boot !== null
  let peer: Peer | null = null
  let exchange: GradientExchange | null = null
  let share: BatchShare | null = null
  const lossHistory: Array<number> = []
  let update: TvaeUpdate | null = null
  let trained = false
  // From here on the networks hold tensors: freed below whatever happens (the peer may fail to start, too).
  try {
    if (boot !== null) {
      const floats = parameterCount(networks.variables)
      const setup = { memory: makeExchangeMemory(floats), floats, weights: [0.5, 0.5] as const }
      const shuffleSeed = random.integer(2 ** 31)
      shuffleRandom = makeRandom(shuffleSeed)
      peer = await boot.start({
        kind: "tvae",
        table,
        transformer: transformer.toJSON(),
        settings,
        shuffleSeed,
        seed: random.integer(2 ** 31),
        weights: readWeights(networks.variables),
        exchange: setup
      })
      exchange = gradientExchange({ ...setup, party: 0 })
    }
    const parallelShare = exchange === null ? null : { exchange, weights: () => share!.weights }
    update = makeTvaeUpdate(table, transformer, networks, settings, streams, parallelShare)

    const rows = table.rowCount
    const order = Int32Array.from({ length: rows }, (_, i) => i)
    const stepsPerEpoch = batchesPerEpoch(rows, batchSize)
    for (let epoch = 1; epoch <= epochs; epoch++) {
      shuffle(order, shuffleRandom)
      let lossSum = 0
      let stepIndex = 0
      for (share of epochShares(order, batchSize, parallel ? 0 : "alone")) {
        lossSum += update.step(share.rows)
        stepIndex += 1
        options.onProgress?.(((epoch - 1) * stepsPerEpoch + stepIndex) / (epochs * stepsPerEpoch))
      }
      const epochLoss = lossSum / stepsPerEpoch
      lossHistory.push(epochLoss)
      options.onEpoch?.(epoch, { loss: epochLoss })
    }
    update.settle()
    if (peer !== null) await confirmReplicas(peer, readWeights(decoderVariables(networks.decoder)))
    trained = true
  } finally {
    if (!trained) exchange?.fail()
    update?.dispose()
    disposeTvaeNetworks(networks, trained)
  }
  if (epochs === 0) options.onProgress?.(1)
  return tvaeModelOf({ decoder: networks.decoder, transformer, embeddingDim: settings.embeddingDim, batchSize, lossHistory })
}
