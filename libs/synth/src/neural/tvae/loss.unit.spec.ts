import type { Tensor } from "@tensorflow/tfjs"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import type { Span } from "../../transform/index.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { makeTvaeLoss } from "./loss.ts"

/** Written by reference/tvae_loss_reference.py from ctgan's own `_loss_function` (float64, torch autograd). */
interface Reference {
  readonly factor: number
  readonly spans: ReadonlyArray<{ readonly width: number; readonly activation: "tanh" | "softmax" }>
  readonly x: ReadonlyArray<ReadonlyArray<number>>
  readonly recon: ReadonlyArray<ReadonlyArray<number>>
  readonly sigmas: ReadonlyArray<number>
  readonly mu: ReadonlyArray<ReadonlyArray<number>>
  readonly logvar: ReadonlyArray<ReadonlyArray<number>>
  readonly reconstruction: number
  readonly divergence: number
  readonly gradients: {
    readonly recon: ReadonlyArray<ReadonlyArray<number>>
    readonly sigmas: ReadonlyArray<number>
    readonly mu: ReadonlyArray<ReadonlyArray<number>>
    readonly logvar: ReadonlyArray<ReadonlyArray<number>>
  }
}

const reference = JSON.parse(readFileSync(new URL("./reference/tvaeLoss.json", import.meta.url), "utf8")) as Reference

const spansOf = (layout: Reference["spans"]): ReadonlyArray<Span> => {
  let offset = 0
  return layout.map(({ activation, width }, column) => {
    const span: Span = { column, role: activation === "tanh" ? "value" : "category", activation, offset, width }
    offset += width
    return span
  })
}

const expectClose = (actual: ArrayLike<number>, expected: ReadonlyArray<number>, tolerance: number) => {
  expect(actual.length).toBe(expected.length)
  expected.forEach((value, i) => expect(Math.abs(actual[i]! - value)).toBeLessThan(tolerance * Math.max(1, Math.abs(value))))
}

describe("the TVAE loss", () => {
  it("equals SDV's loss_function (reconstruction × factor / n + KL / n) and its gradients", async () => {
    const tf = await startWasmBackend()
    const width = reference.x[0]!.length
    const loss = makeTvaeLoss(spansOf(reference.spans), width, reference.factor)
    const x = tf.tensor2d(reference.x.flat(), [reference.x.length, width])
    const mean = tf.tensor2d(reference.mu.flat(), [reference.mu.length, reference.mu[0]!.length])
    const logVariance = tf.tensor2d(reference.logvar.flat(), [reference.logvar.length, reference.logvar[0]!.length])
    const reconstruction = tf.tensor2d(reference.recon.flat(), [reference.recon.length, width])
    const sigma = tf.tensor1d([...reference.sigmas])
    const f = (...[r, s, m, v]: Array<Tensor>) =>
      loss.compute({ x, reconstruction: r as typeof reconstruction, sigma: s as typeof sigma, mean: m as typeof mean, logVariance: v as typeof logVariance })
    const { grads, value } = tf.valueAndGrads(f)([reconstruction, sigma, mean, logVariance])
    expectClose(await value.data(), [reference.reconstruction + reference.divergence], 1e-5)
    expectClose(await grads[0]!.data(), reference.gradients.recon.flat(), 1e-5)
    expectClose(await grads[1]!.data(), reference.gradients.sigmas, 1e-5)
    expectClose(await grads[2]!.data(), reference.gradients.mu.flat(), 1e-5)
    expectClose(await grads[3]!.data(), reference.gradients.logvar.flat(), 1e-5)
    // σ of softmax outputs takes no part (SDV reads σ only at tanh outputs).
    const softmaxOffsets = spansOf(reference.spans).filter((span) => span.activation === "softmax").flatMap((span) => Array.from({ length: span.width }, (_, k) => span.offset + k))
    const sigmaGradient = await grads[1]!.data()
    for (const offset of softmaxOffsets) expect(sigmaGradient[offset]).toBe(0)
    loss.dispose()
  })

  it("refuses a span layout that does not cover the row in order", async () => {
    await startWasmBackend()
    const spans: ReadonlyArray<Span> = [
      { column: 0, role: "category", activation: "softmax", offset: 0, width: 2 },
      { column: 1, role: "category", activation: "softmax", offset: 3, width: 2 }
    ]
    expect(() => makeTvaeLoss(spans, 5, 2)).toThrow(/does not follow/)
    expect(() => makeTvaeLoss(spans.slice(0, 1), 5, 2)).toThrow(/cover 2 of 5/)
  })
})
