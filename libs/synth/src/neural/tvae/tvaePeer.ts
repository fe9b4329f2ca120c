/**
 * The second thread of a data-parallel TVAE training: the same networks from the leader's starting weights, the same
 * row order each epoch (the shared shuffle seed), its own part of every batch, and updates averaged with the leader's.
 */
import * as tf from "@tensorflow/tfjs"
import { Either } from "effect"
import { parentPort } from "node:worker_threads"
import { makeRandom } from "../../random.ts"
import { tableTransformerFromJSON } from "../../transform/index.ts"
import type { GradientExchange } from "../parallel/gradientExchange.ts"
import type { TvaePeerRequest } from "../parallel/protocol.ts"
import { syncedOptimizer } from "../parallel/syncedOptimizer.ts"
import { readWeights, writeWeights } from "../parallel/weights.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { decoderVariables, SIGMA_MAX, SIGMA_MIN } from "./network.ts"
import { disposeTvaeNetworks, makeTvaeNetworks, makeTvaeUpdate, shuffle } from "./tvaeTraining.ts"
import { batchShare, type BatchShare } from "./tvaeSchedule.ts"

export const runTvaePeer = async (request: TvaePeerRequest, exchange: GradientExchange): Promise<void> => {
  await startWasmBackend()
  const { settings, table } = request
  const transformer = Either.getOrThrow(tableTransformerFromJSON(request.transformer))
  const random = makeRandom(request.seed)
  const networks = makeTvaeNetworks(transformer.width, settings, random)
  writeWeights(networks.variables, request.weights)
  const update = makeTvaeUpdate(table, transformer, networks, settings, { encode: random.fork(), noise: random.fork() })
  let share: BatchShare | null = null
  const optimizer = syncedOptimizer(networks.adam, exchange, networks.variables, () => share!.weights)
  const shuffleRandom = makeRandom(request.shuffleSeed)
  const rows = table.rowCount
  const order = Int32Array.from({ length: rows }, (_, i) => i)
  const stepsPerEpoch = Math.ceil(rows / settings.batchSize)
  try {
    for (let epoch = 1; epoch <= settings.epochs; epoch++) {
      shuffle(order, shuffleRandom)
      for (let stepIndex = 0; stepIndex < stepsPerEpoch; stepIndex++) {
        const start = stepIndex * settings.batchSize
        share = batchShare(order, start, Math.min(settings.batchSize, rows - start), 1)
        if (share.rows.length > 0) {
          update.step(share.rows, optimizer)
        } else {
          // A batch of one row is the leader's alone: this thread still meets it, with zero gradients weighted 0.
          tf.tidy(() => optimizer.step(networks.variables.map((variable) => tf.zerosLike(variable))))
          networks.decoder.sigma.assign(tf.tidy(() => tf.clipByValue(networks.decoder.sigma, SIGMA_MIN, SIGMA_MAX)))
        }
      }
    }
    const weights = readWeights(decoderVariables(networks.decoder))
    parentPort?.postMessage({ kind: "finished", finalWeights: weights })
  } finally {
    update.dispose()
    disposeTvaeNetworks(networks, false)
  }
}
