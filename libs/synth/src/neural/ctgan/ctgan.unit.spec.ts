import * as tf from "@tensorflow/tfjs"
import { Result } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import type { ContinuousColumn, SynthTable } from "../../table.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { ctganFromJSON, type CtganModel, CtganOptionsError, fitCtgan } from "./index.ts"
import { twoModeTable } from "./testing/twoModeTable.ts"

// Small networks and few epochs: these tests check the machinery (shapes, seeds, artifacts, memory), not learning.
const small = { embeddingDim: 16, generatorDims: [32, 32], discriminatorDims: [32, 32], batchSize: 100 } as const
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
}, 60_000)

describe("fitCtgan", () => {
  it("records a loss per epoch and reports progress up to 1", () => {
    expect(model.lossHistory.map(({ epoch }) => epoch)).toEqual([1, 2, 3])
    for (const { discriminator, generator } of model.lossHistory) {
      expect(Number.isFinite(generator)).toBe(true)
      expect(Number.isFinite(discriminator)).toBe(true)
    }
    // 600 rows / 100 per batch: 6 steps per epoch, 18 in all.
    expect(progress).toHaveLength(18)
    expect(progress.at(-1)).toBe(1)
    expect(progress.every((fraction, i) => i === 0 || fraction > progress[i - 1]!)).toBe(true)
    expect(model.privacy).toBeNull()
  })

  it("leaks no tensors from one epoch to the next", () => {
    expect(memoryAfterEpoch).toHaveLength(3)
    expect(memoryAfterEpoch[1]).toBe(memoryAfterEpoch[0])
    expect(memoryAfterEpoch[2]).toBe(memoryAfterEpoch[0])
  })

  it("samples the input's columns, as many rows as asked, in batches, without leaking tensors", () => {
    const before = tf.memory().numTensors
    const done: Array<number> = []
    const sample = model.sample(250, 1, (rows) => done.push(rows))
    expect(tf.memory().numTensors).toBe(before)
    expect(done).toEqual([100, 200, 250])
    expect(sample.rowCount).toBe(250)
    expect(sample.columns.map(({ kind, name }) => [name, kind])).toEqual(table.columns.map(({ kind, name }) => [name, kind]))
    for (const column of sample.columns) {
      if (column.kind === "continuous") expect(column.values.every(Number.isFinite)).toBe(true)
      else expect(column.codes.every((code) => code >= 0 && code < column.categories.length)).toBe(true)
    }
  })

  it("samples the same rows for the same seed and other rows for another", () => {
    expect(columnValues(model.sample(300, 11))).toEqual(columnValues(model.sample(300, 11)))
    expect(columnValues(model.sample(300, 12))).not.toEqual(columnValues(model.sample(300, 11)))
  })

  it("steers with the conditional vector set to the rarest known category asked for; an unknown one steers nothing", () => {
    // How strongly a model follows its conditional vector is a matter of training (these 3 epochs: barely); that the
    // vector is set, and to which category, is the machinery's: "b" holds 40 % of the rows, blue about a third.
    const blue = columnValues(model.sampleConditioned(300, 4, [{ column: "color", label: "blue" }]))
    expect(blue).not.toEqual(columnValues(model.sample(300, 4)))
    expect(columnValues(model.sampleConditioned(300, 4, [{ column: "group", label: "b" }, { column: "color", label: "blue" }]))).toEqual(blue)
    expect(columnValues(model.sampleConditioned(300, 4, [{ column: "color", label: "purple" }, { column: "value", label: "1" }]))).toEqual(columnValues(model.sample(300, 4)))
  })

  it("trains the same model from the same seed", async () => {
    const again = await fitCtgan(table, { ...small, seed: 7, epochs: 3 })
    expect(again.lossHistory).toEqual(model.lossHistory)
    expect(columnValues(again.sample(200, 3))).toEqual(columnValues(model.sample(200, 3)))
    again.dispose()
  }, 60_000)

  it("trains and samples a table without categorical columns, with missing values", async () => {
    const value = table.columns[1] as ContinuousColumn
    const missing = Uint8Array.from(value.values, (_, i) => (i % 7 === 0 ? 1 : 0))
    const numeric: SynthTable = { rowCount: table.rowCount, columns: [{ ...value, missing }, table.columns[3]!] }
    for (const dp of [undefined, { targetEpsilon: 10 }]) {
      const fitted = await fitCtgan(numeric, { ...small, seed: 2, epochs: 2, ...(dp === undefined ? {} : { dp }) })
      const sample = fitted.sample(300, 1)
      const sampled = sample.columns[0] as ContinuousColumn
      expect(sample.columns.map(({ name }) => name)).toEqual(["value", "other"])
      expect(sampled.values.every(Number.isFinite)).toBe(true)
      expect(sampled.missing === null || sampled.missing.length === 300).toBe(true)
      fitted.dispose()
    }
  }, 60_000)

  it("refuses a batch size that is not a multiple of pac, and a table without rows", async () => {
    await expect(fitCtgan(table, { ...small, seed: 1, epochs: 1, batchSize: 105 })).rejects.toBeInstanceOf(CtganOptionsError)
    await expect(fitCtgan({ rowCount: 0, columns: table.columns }, { ...small, seed: 1, epochs: 1 })).rejects.toThrow(/no rows/)
  })
})

describe("the CTGAN artifact", () => {
  it("reads back a model that samples exactly what the trained one does", async () => {
    const json = JSON.parse(JSON.stringify(model.toJSON()))
    expect(json).toMatchObject({ format: "synth.ctgan", version: 1, privacy: null })
    const loaded = Result.getOrThrow(await ctganFromJSON(json))
    expect(columnValues(loaded.sample(230, 9))).toEqual(columnValues(model.sample(230, 9)))
    expect(loaded.lossHistory).toEqual(model.lossHistory)
    loaded.dispose()
  })

  it("leaves no tensor behind once a loaded model is disposed", async () => {
    const json = JSON.parse(JSON.stringify(model.toJSON()))
    const before = tf.memory().numTensors
    const loaded = Result.getOrThrow(await ctganFromJSON(json))
    loaded.sample(120, 1)
    loaded.dispose()
    expect(tf.memory().numTensors).toBe(before)
  })

  it("is refused, as a value, when it is not a CTGAN or its parts do not fit together", async () => {
    const json = JSON.parse(JSON.stringify(model.toJSON()))
    const before = tf.memory().numTensors
    const broken = [
      { ...json, format: "synth.tvae" },
      { ...json, version: 2 },
      { ...json, embeddingDim: json.embeddingDim + 1 },
      { ...json, conditionCounts: json.conditionCounts.slice(1) },
      { ...json, generator: { ...json.generator, output: { ...json.generator.output, bias: json.generator.output.weight } } },
      { ...json, transformer: { ...json.transformer, columns: [] } },
      null
    ]
    for (const artifact of broken) {
      const result = await ctganFromJSON(artifact)
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) expect(result.failure._tag).toBe("CtganArtifactError")
    }
    expect(tf.memory().numTensors).toBe(before)
  })
})
