import { describe, expect, it } from "vitest"
import { makeRandom } from "../random.ts"
import { drawOneHot, uniformOf } from "./softmaxDraw.ts"

const softmax = (logits: ReadonlyArray<number>) => {
  const largest = Math.max(...logits)
  const exponentials = logits.map((logit) => Math.exp(logit - largest))
  const total = exponentials.reduce((sum, value) => sum + value, 0)
  return exponentials.map((value) => value / total)
}

/** How often each entry of the span comes out chosen, over `draws` draws. */
const shares = (logits: ReadonlyArray<number>, draws: number, choose: (row: Float32Array) => number) => {
  const counts = new Array<number>(logits.length).fill(0)
  for (let i = 0; i < draws; i++) counts[choose(Float32Array.from(logits))]! += 1
  return counts.map((count) => count / draws)
}

describe("drawOneHot", () => {
  const logits = [1.5, -0.3, 0.2, 2.4, -4]
  const draws = 100_000

  it("writes a one-hot over the span only", () => {
    const row = Float32Array.of(9, ...logits, 9)
    drawOneHot(row, 1, logits.length, 0.5)
    expect(row[0]).toBe(9)
    expect(row[6]).toBe(9)
    const span = Array.from(row.subarray(1, 6))
    expect(span.filter((value) => value === 1)).toHaveLength(1)
    expect(span.filter((value) => value === 0)).toHaveLength(4)
  })

  it("draws each entry with its softmax probability, as the largest entry of the gumbel-softmax did", () => {
    const random = makeRandom(5)
    const drawn = shares(logits, draws, (row) => {
      drawOneHot(row, 0, row.length, uniformOf(random.uint32()))
      return row.indexOf(1)
    })
    // What sampling did before: the largest of logit + Gumbel noise per entry (the temperature does not move it).
    const gumbelRandom = makeRandom(6)
    const gumbel = shares(logits, draws, (row) => {
      const perturbed = Array.from(row, (logit) => logit - Math.log(-Math.log(uniformOf(gumbelRandom.uint32()))))
      return perturbed.indexOf(Math.max(...perturbed))
    })
    // Four standard errors of a share near ½ over 100,000 draws: 0.0063.
    softmax(logits).forEach((probability, k) => {
      expect(Math.abs(drawn[k]! - probability)).toBeLessThan(0.0063)
      expect(Math.abs(gumbel[k]! - probability)).toBeLessThan(0.0063)
    })
  })

  it("reads the uniform as a position in the cumulative softmax", () => {
    const probabilities = softmax(logits)
    const chosenAt = (uniform: number) => {
      const row = Float32Array.from(logits)
      drawOneHot(row, 0, row.length, uniform)
      return row.indexOf(1)
    }
    expect(chosenAt(probabilities[0]! * 0.99)).toBe(0)
    expect(chosenAt(probabilities[0]! * 1.01)).toBe(1)
    expect(chosenAt(1 - probabilities[4]! * 0.5)).toBe(4)
  })
})
