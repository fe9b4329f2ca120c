import * as tf from "@tensorflow/tfjs"
import { describe, expect, it } from "vitest"
import type { SynthTable } from "../../table.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { fitTvae } from "./index.ts"
import { twoModeTable } from "./testing/twoModeTable.ts"
import { batchShare } from "./tvaeSchedule.ts"

// Data-parallel TVAE on two threads: fitTvae rejects unless both replicas end with the same decoder, bit for bit.
const small = { embeddingDim: 8, compressDims: [16], decompressDims: [16], batchSize: 64, threads: 2 } as const
// 601 rows in batches of 64: the last batch of each epoch has one row, the leader's alone.
const table = twoModeTable(601, 3)

const columnValues = (sample: SynthTable) =>
  sample.columns.map((column) => (column.kind === "continuous" ? Array.from(column.values) : Array.from(column.codes)))

describe("fitTvae on two threads", () => {
  it("trains, reproducibly from a seed, with no tensor left behind", async () => {
    await startWasmBackend()
    const before = tf.memory().numTensors
    const model = await fitTvae(table, { ...small, seed: 5, epochs: 3 })
    expect(model.lossHistory).toHaveLength(3)
    expect(model.lossHistory.every(Number.isFinite)).toBe(true)
    const again = await fitTvae(table, { ...small, seed: 5, epochs: 3 })
    expect(again.lossHistory).toEqual(model.lossHistory)
    expect(columnValues(again.sample(100, 1))).toEqual(columnValues(model.sample(100, 1)))
    const oneThread = await fitTvae(table, { ...small, threads: 1, seed: 5, epochs: 3 })
    expect(oneThread.lossHistory).not.toEqual(model.lossHistory)
    for (const trained of [model, again, oneThread]) trained.dispose()
    expect(tf.memory().numTensors).toBe(before)
  }, 120_000)
})

describe("batchShare", () => {
  const order = Int32Array.from({ length: 10 }, (_, i) => 9 - i)

  it("gives the leader the first ⌈n/2⌉ rows of a batch and the peer the rest, weighted by rows", () => {
    expect(batchShare(order, 0, 5, 0)).toEqual({ rows: Int32Array.of(9, 8, 7), weights: [0.6, 0.4] })
    expect(batchShare(order, 0, 5, 1)).toEqual({ rows: Int32Array.of(6, 5), weights: [0.6, 0.4] })
    expect(batchShare(order, 9, 1, 1)).toEqual({ rows: new Int32Array(0), weights: [1, 0] })
  })

  it("gives a thread training alone the whole batch", () => {
    expect(batchShare(order, 4, 3, "alone")).toEqual({ rows: Int32Array.of(5, 4, 3), weights: [1, 0] })
  })
})
