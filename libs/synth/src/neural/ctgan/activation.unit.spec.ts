import type * as TF from "@tensorflow/tfjs"
import { describe, expect, it } from "vitest"
import { makeRandom } from "../../random.ts"
import type { Span } from "../../transform/index.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { GUMBEL_TEMPERATURE, gumbelNoise, makeOutputHeads } from "./activation.ts"
import type { ConditionSpace } from "./conditions.ts"

// A numeric column (value, 3 modes), a 4-category column, a numeric column with a missing indicator, a 2-category one.
const spans: ReadonlyArray<Span> = [
  { column: 0, role: "value", activation: "tanh", offset: 0, width: 1 },
  { column: 0, role: "mode", activation: "softmax", offset: 1, width: 3 },
  { column: 1, role: "category", activation: "softmax", offset: 4, width: 4 },
  { column: 2, role: "value", activation: "tanh", offset: 8, width: 1 },
  { column: 2, role: "mode", activation: "softmax", offset: 9, width: 1 },
  { column: 2, role: "missing", activation: "softmax", offset: 10, width: 2 },
  { column: 3, role: "category", activation: "softmax", offset: 12, width: 2 }
]
const width = 14
const space: ConditionSpace = {
  columns: [
    { column: 1, offset: 4, width: 4, conditionOffset: 0 },
    { column: 3, offset: 12, width: 2, conditionOffset: 4 }
  ],
  width: 6
}

/** ctgan's _apply_activate written out span by span in float64. */
const referenceActivation = (raw: Float32Array, gumbel: Float32Array, rows: number) => {
  const out = new Float64Array(rows * width)
  for (let row = 0; row < rows; row++) {
    for (const { activation, offset, width: size } of spans) {
      const at = row * width + offset
      if (activation === "tanh") {
        out[at] = Math.tanh(raw[at]!)
        continue
      }
      const logits = Array.from({ length: size }, (_, k) => (raw[at + k]! + gumbel[at + k]!) / GUMBEL_TEMPERATURE)
      const largest = Math.max(...logits)
      const total = logits.reduce((sum, logit) => sum + Math.exp(logit - largest), 0)
      logits.forEach((logit, k) => (out[at + k] = Math.exp(logit - largest) / total))
    }
  }
  return out
}

/** The same, span by span with tfjs's own softmax, for gradients. */
const slicedActivation = (tf: typeof TF, raw: TF.Tensor2D, gumbel: TF.Tensor2D): TF.Tensor2D => {
  const rows = raw.shape[0]
  return tf.concat(
    spans.map(({ activation, offset, width: size }): TF.Tensor2D => {
      const logits: TF.Tensor2D = tf.slice(raw, [0, offset], [rows, size])
      return activation === "tanh" ? tf.tanh(logits) : tf.softmax(tf.div<TF.Tensor2D>(tf.add(logits, tf.slice(gumbel, [0, offset], [rows, size])), GUMBEL_TEMPERATURE))
    }),
    1
  )
}

describe("CTGAN's output heads", () => {
  it("apply tanh and gumbel-softmax span by span, even for logits that would overflow e^x", async () => {
    const tf = await startWasmBackend()
    const random = makeRandom(2)
    const rows = 9
    const raw = Float32Array.from({ length: rows * width }, (_, i) => (i < width ? 40 : 3) * random.normal())
    const gumbel = gumbelNoise(rows * width, random)
    const heads = makeOutputHeads(spans, width, space)
    const actual = tf.tidy(() => heads.activate(tf.tensor2d(raw, [rows, width]), gumbel).dataSync())
    const expected = referenceActivation(raw, gumbel, rows)
    actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 5))
    heads.dispose()
  })

  it("pass the same gradients back as span-by-span softmaxes", async () => {
    const tf = await startWasmBackend()
    const random = makeRandom(3)
    const rows = 6
    const raw = tf.tensor2d(Float32Array.from({ length: rows * width }, () => random.normal()), [rows, width])
    const gumbel = gumbelNoise(rows * width, random)
    const weights = tf.tensor2d(Float32Array.from({ length: rows * width }, () => random.normal()), [rows, width])
    const heads = makeOutputHeads(spans, width, space)
    const gradientOf = (activation: (x: TF.Tensor2D) => TF.Tensor2D) =>
      tf.grad((x: TF.Tensor) => tf.sum(tf.mul(weights, activation(x as TF.Tensor2D))))(raw).dataSync()
    const actual = gradientOf((x) => heads.activate(x, gumbel))
    const expected = gradientOf((x) => slicedActivation(tf, x, tf.tensor2d(gumbel, [rows, width])))
    expect(Math.max(...Array.from(expected, Math.abs))).toBeGreaterThan(0.1)
    actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 4))
    heads.dispose()
  })

  it("compute the conditional loss as ctgan's cross-entropy on the conditioned column, per row", async () => {
    const tf = await startWasmBackend()
    const random = makeRandom(4)
    const rows = 8
    const raw = Float32Array.from({ length: rows * width }, () => 5 * random.normal())
    const conditions = { columns: Int32Array.from([0, 1, 0, 0, 1, 1, 0, 1]), slots: Int32Array.from([3, 1, 0, 2, 0, 1, 1, 0]) }
    const heads = makeOutputHeads(spans, width, space)
    const actual = tf.tidy(() => heads.conditionLoss(tf.tensor2d(raw, [rows, width]), conditions).dataSync()[0]!)
    let expected = 0
    for (let row = 0; row < rows; row++) {
      const { offset, width: size } = space.columns[conditions.columns[row]!]!
      const logits = Array.from({ length: size }, (_, k) => raw[row * width + offset + k]!)
      const largest = Math.max(...logits)
      const logSum = largest + Math.log(logits.reduce((sum, logit) => sum + Math.exp(logit - largest), 0))
      expected += logSum - logits[conditions.slots[row]!]!
    }
    expect(actual).toBeCloseTo(expected / rows, 4)
    heads.dispose()
  })
})
