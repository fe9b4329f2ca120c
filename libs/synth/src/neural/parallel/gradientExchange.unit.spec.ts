import { once } from "node:events"
import { Worker } from "node:worker_threads"
import { describe, expect, it } from "vitest"
import { gradientExchange, makeExchangeMemory, PeerLost } from "./gradientExchange.ts"
import { splitBatch } from "./splitBatch.ts"

const party = new URL("./testing/exchangeParty.mjs", import.meta.url)

const startParty = (workerData: Record<string, unknown>) => {
  const worker = new Worker(party, { workerData })
  const answer = once(worker, "message").then(([results]) => results as Array<Array<number>>)
  return { worker, answer }
}

describe("gradientExchange", () => {
  it("gives both parties the same weighted average, round after round", async () => {
    const floats = 5
    const setup = { memory: makeExchangeMemory(floats), floats, weights: [0.6, 0.4] as const }
    const other = startParty({ setup, rounds: 4, length: 3 })
    const leader = gradientExchange({ ...setup, party: 0 })
    const mine: Array<Array<number>> = []
    for (let round = 0; round < 4; round++) {
      // Party 0 sends 10 × (round + 1) where party 1 sends round + 1: the average is 0.6·10r' + 0.4·r' = 6.4·r'.
      const values = new Float32Array(3).fill(10 * (round + 1))
      leader.average(values)
      mine.push(Array.from(values))
    }
    const theirs = await other.answer
    expect(theirs).toEqual(mine)
    mine.forEach((values, round) => {
      for (const value of values) expect(value).toBeCloseTo(6.4 * (round + 1), 5)
    })
    await other.worker.terminate()
  })

  it("stops waiting as soon as the other party reports a failure", async () => {
    const floats = 2
    const setup = { memory: makeExchangeMemory(floats), floats, weights: [0.5, 0.5] as const }
    const other = startParty({ setup, rounds: 3, length: 2, failAtRound: 1 })
    const leader = gradientExchange({ ...setup, party: 0, patienceMs: 60_000 })
    leader.average(new Float32Array(2))
    const started = Date.now()
    expect(() => leader.average(new Float32Array(2))).toThrow(PeerLost)
    expect(Date.now() - started).toBeLessThan(30_000)
    await other.answer
    await other.worker.terminate()
  })

  it("gives up after its patience when the other party never comes", () => {
    const floats = 1
    const leader = gradientExchange({ memory: makeExchangeMemory(floats), floats, party: 0, weights: [0.5, 0.5], patienceMs: 50 })
    expect(() => leader.average(new Float32Array(1))).toThrow(/did not answer within 50 ms/)
  })

  it("refuses more values than the memory holds", () => {
    const leader = gradientExchange({ memory: makeExchangeMemory(2), floats: 2, party: 0, weights: [0.5, 0.5], patienceMs: 10 })
    expect(() => leader.average(new Float32Array(3))).toThrow(RangeError)
  })
})

describe("splitBatch", () => {
  it("gives the leader the larger half of the packs and weights by rows", () => {
    expect(splitBatch(500, 10)).toEqual({ leaderRows: 250, peerRows: 250, weights: [0.5, 0.5] })
    expect(splitBatch(30, 10)).toEqual({ leaderRows: 20, peerRows: 10, weights: [20 / 30, 10 / 30] })
    expect(splitBatch(7, 1)).toEqual({ leaderRows: 4, peerRows: 3, weights: [4 / 7, 3 / 7] })
  })

  it("does not split a single pack", () => {
    expect(splitBatch(10, 10)).toBeNull()
    expect(splitBatch(1, 1)).toBeNull()
  })
})
