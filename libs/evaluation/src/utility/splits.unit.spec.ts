import { makeRandom } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { kFolds, trainTestSplit } from "./splits.ts"

const labels = Int32Array.from({ length: 100 }, (_, i) => (i % 10 < 3 ? 1 : i % 10 < 4 ? 2 : 0))
const countOf = (rows: Int32Array, label: number) => rows.filter((row) => labels[row] === label).length

describe("trainTestSplit", () => {
  it("holds out test_size of the rows, stratified, disjoint and covering every row", () => {
    const split = trainTestSplit(100, 0.2, labels, makeRandom(1))
    expect(split.test.length).toBe(20)
    expect([countOf(split.test, 0), countOf(split.test, 1), countOf(split.test, 2)]).toEqual([12, 6, 2])
    expect([...split.train, ...split.test].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i))
  })

  it("is deterministic for a seed and differs between seeds", () => {
    const first = trainTestSplit(100, 0.25, null, makeRandom(7))
    expect(trainTestSplit(100, 0.25, null, makeRandom(7))).toEqual(first)
    expect(trainTestSplit(100, 0.25, null, makeRandom(8)).test).not.toEqual(first.test)
  })

  it("rejects a test_size outside (0, 1)", () => {
    expect(() => trainTestSplit(10, 1, null, makeRandom(1))).toThrow(/test_size/)
  })
})

describe("kFolds", () => {
  it("makes k disjoint test folds of near-equal size with the class shares of the whole", () => {
    const folds = kFolds(100, 3, labels, makeRandom(3))
    const tested = folds.flatMap((fold) => [...fold.test]).sort((a, b) => a - b)
    expect(tested).toEqual(Array.from({ length: 100 }, (_, i) => i))
    for (const fold of folds) {
      expect(Math.abs(fold.test.length - 100 / 3)).toBeLessThan(1)
      expect(fold.train.length + fold.test.length).toBe(100)
      expect(Math.abs(countOf(fold.test, 1) - 10)).toBeLessThanOrEqual(1)
      expect(fold.train.some((row) => fold.test.includes(row))).toBe(false)
    }
  })

  it("is deterministic for a seed", () => {
    expect(kFolds(50, 5, null, makeRandom(2))).toEqual(kFolds(50, 5, null, makeRandom(2)))
  })
})
