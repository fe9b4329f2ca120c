import { beforeAll, describe, expect, it } from "vitest"
import { makeRandom } from "../../../random.ts"
import { loadNativeGemm } from "../../tf/native/nativeGemm.ts"
import { startWasmBackend } from "../../tf/wasmBackend.ts"
import { conditionDraw, logFrequencies } from "../conditions.ts"
import { disposeCtganParts, makeCtganParts, trainingContextOf } from "../ctganParts.ts"
import { ctganStep } from "../ctganStep.ts"
import { smallSettings, smallTable, smallTransformer } from "../testing/smallTraining.ts"
import type { StepLosses } from "../trainingContext.ts"
import { directCtganTrainer } from "./directStep.ts"
import { productsOf } from "./matrices.ts"

beforeAll(async () => {
  await startWasmBackend()
})

const table = smallTable
const transformer = smallTransformer
const settings = smallSettings()

/** Three steps from the same seed (same weights, same draws), through the step `engine` builds. */
const threeSteps = (engine: "direct" | "tfjs"): ReadonlyArray<StepLosses> => {
  const random = makeRandom(21)
  const parts = makeCtganParts(table, transformer, settings, random)
  const context = trainingContextOf(table, transformer, parts, settings, { batchRows: settings.batchSize, exchange: null }, random.fork())
  const draw = conditionDraw(logFrequencies(parts.index.counts))
  let step: () => StepLosses
  if (engine === "tfjs") {
    step = ctganStep(context, draw)
  } else {
    const native = loadNativeGemm()
    if (native._tag !== "Loaded") throw new Error(`ONNX Runtime did not load: ${native.reason}`)
    step = directCtganTrainer(context, draw, productsOf(native.gemm), null).step
  }
  const losses = [step(), step(), step()]
  disposeCtganParts(parts, false)
  return losses
}

describe("the direct CTGAN step", () => {
  it("draws the same batches as the tfjs step and gives its losses, step after step", () => {
    const direct = threeSteps("direct")
    const reference = threeSteps("tfjs")
    // Step 1's critic loss is computed before any update: the same weights on the same draws.
    expect(direct[0]!.discriminator).toBeCloseTo(reference[0]!.discriminator, 5)
    // Later losses follow updates, where float rounding in the two computations can nudge Adam's first steps.
    direct.forEach((losses, i) => {
      expect(losses.discriminator).toBeCloseTo(reference[i]!.discriminator, 3)
      expect(losses.generator).toBeCloseTo(reference[i]!.generator, 3)
    })
    expect(new Set(direct.map(({ generator }) => generator)).size).toBe(3)
  })
})
