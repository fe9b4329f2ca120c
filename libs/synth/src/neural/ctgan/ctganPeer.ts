/**
 * The second thread of a data-parallel CTGAN training: the same networks from the leader's starting weights, its own
 * share of every batch drawn from its own seed, and optimisers that average each step's gradients with the leader's.
 */
import { parentPort } from "node:worker_threads"
import { makeRandom } from "../../random.ts"
import { tableTransformerFromJSON } from "../../transform/index.ts"
import type { GradientExchange } from "../parallel/gradientExchange.ts"
import type { CtganPeerRequest } from "../parallel/protocol.ts"
import { readWeights, writeWeights } from "../parallel/weights.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { conditionDraw, logFrequencies } from "./conditions.ts"
import { disposeCtganParts, makeCtganParts, trainingContextOf } from "./ctganParts.ts"
import { ctganTrainer } from "./ctganTrainer.ts"
import { discriminatorVariables } from "./discriminator.ts"
import { generatorVariables } from "./generator.ts"
import { Result } from "effect"

export const runCtganPeer = async (request: CtganPeerRequest, exchange: GradientExchange): Promise<void> => {
  await startWasmBackend()
  const transformer = Result.getOrThrowWith(tableTransformerFromJSON(request.transformer), (error) => error)
  const random = makeRandom(request.seed)
  const parts = makeCtganParts(request.table, transformer, request.settings, random)
  const generatorVariableList = generatorVariables(parts.generator)
  const discriminatorVariableList = discriminatorVariables(parts.discriminator)
  writeWeights(generatorVariableList, request.generatorWeights)
  writeWeights(discriminatorVariableList, request.discriminatorWeights)
  const context = trainingContextOf(request.table, transformer, parts, request.settings, { batchRows: request.batchRows, exchange }, random.fork())
  const trainer = ctganTrainer(context, conditionDraw(logFrequencies(parts.index.counts)), exchange)
  try {
    for (let done = 0; done < request.steps; done++) trainer.step()
    trainer.settle()
    // The leader checks that both replicas ended with the same generator (they apply identical updates).
    const weights = readWeights(generatorVariableList)
    parentPort?.postMessage({ kind: "finished", finalWeights: weights })
  } finally {
    trainer.dispose()
    disposeCtganParts(parts, false)
  }
}
