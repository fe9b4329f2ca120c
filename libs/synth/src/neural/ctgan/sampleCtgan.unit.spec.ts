import { beforeAll, describe, expect, it } from "vitest"
import { makeRandom } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import { loadNativeGemm } from "../tf/native/nativeGemm.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { categoryIndexOf, conditionDraw, conditionSpaceOf } from "./conditions.ts"
import { disposeGenerator, makeGenerator } from "./generator.ts"
import { generatorPass } from "./generatorPass.ts"
import { sampleCtgan } from "./sampleCtgan.ts"
import { smallTable, smallTransformer } from "./testing/smallTraining.ts"

const batchSize = 100
const embeddingDim = 16
const space = conditionSpaceOf(smallTransformer)
const sampling = { transformer: smallTransformer, space, embeddingDim, batchSize }
const draw = conditionDraw(categoryIndexOf(smallTransformer, smallTable, space).counts)

beforeAll(async () => {
  await startWasmBackend()
})

const sampleWith = (engine: "auto" | "tfjs", rows: number, seed: number, onProgress?: (rowsDone: number) => void): SynthTable => {
  // An untrained generator: the two passes must agree on any weights.
  const generator = makeGenerator(embeddingDim + space.width, [32, 24], smallTransformer.width, makeRandom(4))
  const pass = generatorPass(generator, batchSize, engine)
  try {
    return sampleCtgan(sampling, pass, rows, seed, (random) => draw.draw(batchSize, random), onProgress)
  } finally {
    pass.dispose()
    disposeGenerator(generator)
  }
}

describe("CTGAN sampling", () => {
  it("draws the same rows for a seed through ONNX Runtime as through tfjs, up to float32 rounding", () => {
    expect(loadNativeGemm()._tag).toBe("Loaded")
    const rows = 2_000
    const direct = sampleWith("auto", rows, 9)
    const tfjs = sampleWith("tfjs", rows, 9)
    expect(direct.rowCount).toBe(rows)
    direct.columns.forEach((column, c) => {
      const other = tfjs.columns[c]!
      let agreeing = 0
      for (let row = 0; row < rows; row++) {
        if (column.kind === "continuous" && other.kind === "continuous") {
          if (Math.abs(column.values[row]! - other.values[row]!) < 1e-3 * (1 + Math.abs(column.values[row]!))) agreeing++
        } else if (column.kind === "categorical" && other.kind === "categorical" && column.codes[row] === other.codes[row]) agreeing++
      }
      // A draw flips only where the uniform falls within rounding of a boundary of the cumulative softmax.
      expect(agreeing / rows, column.name).toBeGreaterThan(0.995)
    })
  })

  it("draws as many rows as asked in batches of the training's size, the last one cut", () => {
    const done: Array<number> = []
    const sample = sampleWith("auto", 250, 3, (rows) => done.push(rows))
    expect(done).toEqual([100, 200, 250])
    expect(sample.rowCount).toBe(250)
    // Even untrained, every value is one the columns can hold.
    for (const column of sample.columns) {
      if (column.kind === "continuous") expect(column.values.every(Number.isFinite)).toBe(true)
      else expect(column.codes.every((code) => code >= 0 && code < column.categories.length)).toBe(true)
    }
  })
})
