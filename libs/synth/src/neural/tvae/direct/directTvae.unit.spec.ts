import * as tf from "@tensorflow/tfjs"
import { beforeAll, describe, expect, it } from "vitest"
import { makeRandom } from "../../../random.ts"
import { fitTableTransformer } from "../../../transform/index.ts"
import { productsOf } from "../../ctgan/direct/matrices.ts"
import type { Adam } from "../../tf/adam.ts"
import { loadNativeGemm } from "../../tf/native/nativeGemm.ts"
import { startWasmBackend } from "../../tf/wasmBackend.ts"
import type { TvaeSettings } from "../options.ts"
import { twoModeTable } from "../testing/twoModeTable.ts"
import { disposeTvaeNetworks, makeTfjsTvaeUpdate, makeTvaeNetworks } from "../tvaeTraining.ts"
import { makeDirectTvaeUpdate } from "./directTvae.ts"

beforeAll(async () => {
  await startWasmBackend()
})

describe("the direct TVAE update", () => {
  it("gives tfjs's loss and gradients on the same batch, ε and mode draws", () => {
    const native = loadNativeGemm()
    if (native._tag !== "Loaded") throw new Error(`ONNX Runtime did not load: ${native.reason}`)
    const table = twoModeTable(300, 3)
    const transformer = fitTableTransformer(table, { seed: 5 })
    const settings: TvaeSettings = { epochs: 1, batchSize: 64, embeddingDim: 16, compressDims: [24, 20], decompressDims: [20, 24], lossFactor: 2 }
    const networks = makeTvaeNetworks(transformer.width, settings, makeRandom(9))
    // Some σ away from their start, so that each value output's σ gradient differs.
    const sigma = Float32Array.from({ length: transformer.width }, (_, j) => 0.05 + 0.1 * (j % 5))
    tf.tidy(() => networks.decoder.sigma.assign(tf.tensor1d(sigma)))
    const rows = Int32Array.from({ length: 64 }, (_, i) => (i * 37) % table.rowCount)

    const expected: Array<Float32Array> = []
    const recording: Adam = {
      step: (gradients) => expected.push(...gradients.map((gradient) => gradient.dataSync() as Float32Array)),
      dispose: () => {}
    }
    let actual = new Float32Array(0)
    const direct = makeDirectTvaeUpdate(table, transformer, networks, settings, { encode: makeRandom(1), noise: makeRandom(2) }, productsOf(native.gemm), {
      average: (gradients) => (actual = Float32Array.from(gradients))
    })
    const tfjsUpdate = makeTfjsTvaeUpdate(table, transformer, networks, settings, { encode: makeRandom(1), noise: makeRandom(2) })
    const expectedLoss = tfjsUpdate.step(rows, recording)
    const loss = direct.step(rows)
    tfjsUpdate.dispose()

    expect(loss).toBeCloseTo(expectedLoss, 3)
    const flat = new Float32Array(expected.reduce((sum, gradient) => sum + gradient.length, 0))
    let offset = 0
    for (const gradient of expected) {
      flat.set(gradient, offset)
      offset += gradient.length
    }
    expect(actual.length).toBe(flat.length)
    let largest = 0
    for (let i = 0; i < flat.length; i++) {
      largest = Math.max(largest, Math.abs(flat[i]!))
      if (!(Math.abs(actual[i]! - flat[i]!) <= 2e-4 * Math.max(1, Math.abs(flat[i]!)))) throw new Error(`gradient ${i}: ${actual[i]} against ${flat[i]}`)
    }
    expect(largest).toBeGreaterThan(0)
    disposeTvaeNetworks(networks, false)
  })
})
