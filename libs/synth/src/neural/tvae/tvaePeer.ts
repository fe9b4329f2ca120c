/**
 * The second thread of a data-parallel TVAE training: the same networks from the leader's starting weights, the same
 * row order each epoch (the shared shuffle seed), its own part of every batch, and updates averaged with the leader's.
 */
import { parentPort } from "node:worker_threads"
import { makeRandom } from "../../random.ts"
import { tableTransformerFromJSON } from "../../transform/index.ts"
import type { GradientExchange } from "../parallel/gradientExchange.ts"
import type { TvaePeerRequest } from "../parallel/protocol.ts"
import { readWeights, writeWeights } from "../parallel/weights.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { decoderVariables } from "./network.ts"
import { disposeTvaeNetworks, makeTvaeNetworks, makeTvaeUpdate, shuffle } from "./tvaeTraining.ts"
import { type BatchShare, epochShares } from "./tvaeSchedule.ts"
import { Result } from "effect"

export const runTvaePeer = async (request: TvaePeerRequest, exchange: GradientExchange): Promise<void> => {
  await startWasmBackend()
  const { settings, table } = request
  const transformer = Result.getOrThrowWith(tableTransformerFromJSON(request.transformer), (error) => error)
  const random = makeRandom(request.seed)
  const networks = makeTvaeNetworks(transformer.width, settings, random)
  writeWeights(networks.variables, request.weights)
  const streams = { encode: random.fork(), noise: random.fork() }
  let share: BatchShare | null = null
  const update = makeTvaeUpdate(table, transformer, networks, settings, streams, { exchange, weights: () => share!.weights })
  const shuffleRandom = makeRandom(request.shuffleSeed)
  const order = Int32Array.from({ length: table.rowCount }, (_, i) => i)
  try {
    for (let epoch = 1; epoch <= settings.epochs; epoch++) {
      shuffle(order, shuffleRandom)
      for (share of epochShares(order, settings.batchSize, 1)) {
        if (share.rows.length > 0) update.step(share.rows)
        else update.stepWithoutRows()
      }
    }
    update.settle()
    const weights = readWeights(decoderVariables(networks.decoder))
    parentPort?.postMessage({ kind: "finished", finalWeights: weights })
  } finally {
    update.dispose()
    disposeTvaeNetworks(networks, false)
  }
}
