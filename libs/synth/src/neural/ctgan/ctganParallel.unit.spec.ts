import * as tf from "@tensorflow/tfjs"
import { beforeAll, describe, expect, it } from "vitest"
import type { SynthTable } from "../../table.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { type CtganModel, fitCtgan } from "./index.ts"
import { twoModeTable } from "./testing/twoModeTable.ts"

// Data-parallel training on two threads. Machinery only (learning on two threads is in ctganLearning): the replicas
// are checked bit for bit at the end of every such training (fitCtgan rejects when they differ).
const small = { embeddingDim: 16, generatorDims: [32, 32], discriminatorDims: [32, 32], batchSize: 100, threads: 2 } as const
const table = twoModeTable(600, 5)

const columnValues = (sample: SynthTable) =>
  sample.columns.map((column) => (column.kind === "continuous" ? Array.from(column.values) : Array.from(column.codes)))

let model: CtganModel
const memoryAfterEpoch: Array<number> = []
const progress: Array<number> = []

beforeAll(async () => {
  await startWasmBackend()
  model = await fitCtgan(table, {
    ...small,
    seed: 7,
    epochs: 3,
    onEpoch: () => memoryAfterEpoch.push(tf.memory().numTensors),
    onProgress: (fraction) => progress.push(fraction)
  })
}, 120_000)

describe("fitCtgan on two threads", () => {
  it("trains with both replicas equal, records a loss per epoch and reports progress up to 1", () => {
    expect(model.lossHistory.map(({ epoch }) => epoch)).toEqual([1, 2, 3])
    for (const { discriminator, generator } of model.lossHistory) {
      expect(Number.isFinite(generator)).toBe(true)
      expect(Number.isFinite(discriminator)).toBe(true)
    }
    expect(progress).toHaveLength(18)
    expect(progress.at(-1)).toBe(1)
  })

  it("leaks no tensors from one epoch to the next", () => {
    expect(memoryAfterEpoch).toHaveLength(3)
    expect(memoryAfterEpoch[2]).toBe(memoryAfterEpoch[0])
  })

  it("trains the same model from the same seed, and another than one thread does", async () => {
    const again = await fitCtgan(table, { ...small, seed: 7, epochs: 3 })
    expect(again.lossHistory).toEqual(model.lossHistory)
    expect(columnValues(again.sample(200, 3))).toEqual(columnValues(model.sample(200, 3)))
    const oneThread = await fitCtgan(table, { ...small, threads: 1, seed: 7, epochs: 3 })
    expect(oneThread.lossHistory).not.toEqual(model.lossHistory)
    again.dispose()
    oneThread.dispose()
  }, 120_000)

  it("trains DP-CTGAN on one thread (its noise is drawn once per batch)", async () => {
    const dp = await fitCtgan(table, { ...small, seed: 7, epochs: 1, dp: { targetEpsilon: 5 } })
    const oneThread = await fitCtgan(table, { ...small, threads: 1, seed: 7, epochs: 1, dp: { targetEpsilon: 5 } })
    expect(dp.lossHistory).toEqual(oneThread.lossHistory)
    expect(dp.privacy!.epsilonSpent).toBeLessThanOrEqual(5)
    dp.dispose()
    oneThread.dispose()
  }, 120_000)
})
