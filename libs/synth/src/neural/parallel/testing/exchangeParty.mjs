// Party 1 of a gradient exchange, for gradientExchange's tests: averages workerData.rounds arrays (round r holds
// r + 1 everywhere), posts what it got, and raises the failure flag instead at workerData.failAtRound.
import { parentPort, workerData } from "node:worker_threads"
const { gradientExchange } = await import("../gradientExchange.ts")
const exchange = gradientExchange({ ...workerData.setup, party: 1 })
const results = []
for (let round = 0; round < workerData.rounds; round++) {
  if (round === workerData.failAtRound) {
    exchange.fail()
    break
  }
  const values = new Float32Array(workerData.length).fill(round + 1)
  exchange.average(values)
  results.push(Array.from(values))
}
parentPort.postMessage(results)
