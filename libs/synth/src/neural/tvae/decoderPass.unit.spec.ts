import * as tf from "@tensorflow/tfjs"
import { beforeAll, describe, expect, it } from "vitest"
import { makeRandom } from "../../random.ts"
import { fillStandardNormals } from "../ctgan/noise.ts"
import { loadNativeGemm } from "../tf/native/nativeGemm.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { decoderPass } from "./decoderPass.ts"
import { decoderVariables, makeDecoder } from "./network.ts"

beforeAll(async () => {
  await startWasmBackend()
})

describe("the TVAE decoder's sampling pass", () => {
  it("gives tfjs's outputs through ONNX Runtime, up to float32 rounding, and leaves no tensor behind", () => {
    expect(loadNativeGemm()._tag).toBe("Loaded")
    const decoder = makeDecoder(12, [32, 24], 20, makeRandom(3))
    const noise = fillStandardNormals(new Float32Array(150 * 12), makeRandom(4))
    const before = tf.memory().numTensors
    const direct = Float32Array.from(decoderPass(decoder, 150).run(noise, 130))
    const tfjs = decoderPass(decoder, 150, "tfjs").run(noise, 130)
    expect(tf.memory().numTensors).toBe(before)
    expect(direct).toHaveLength(130 * 20)
    expect(tfjs).toHaveLength(130 * 20)
    let largest = 0
    for (let i = 0; i < direct.length; i++) largest = Math.max(largest, Math.abs(direct[i]! - tfjs[i]!))
    expect(largest).toBeLessThan(1e-4)
    for (const variable of decoderVariables(decoder)) variable.dispose()
  })
})
