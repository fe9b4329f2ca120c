import type { CategoricalColumn, ContinuousColumn, SynthTable } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { columnDistributions } from "./columnDistributions.ts"
import { correlationMatrices } from "./correlationMatrices.ts"

const continuous = (name: string, values: ReadonlyArray<number | null>): ContinuousColumn => ({
  kind: "continuous",
  name,
  type: "float",
  values: Float64Array.from(values, (value) => value ?? 0),
  missing: values.includes(null) ? Uint8Array.from(values, (value) => (value === null ? 1 : 0)) : null,
  sourceFormat: null
})

const categorical = (name: string, labels: ReadonlyArray<string | null>): CategoricalColumn => {
  const categories = [...new Set(labels.filter((label): label is string => label !== null))].sort()
  return { kind: "categorical", name, type: "string", categories, codes: Int32Array.from(labels, (label) => (label === null ? -1 : categories.indexOf(label))) }
}

const table = (...columns: ReadonlyArray<ContinuousColumn | CategoricalColumn>): SynthTable => ({ rowCount: columns[0]!.kind === "continuous" ? columns[0]!.values.length : columns[0]!.codes.length, columns })

const sum = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0)

describe("columnDistributions", () => {
  it("bins numbers in 20 equal-width bins over the real range, with what lies below, above or is missing", () => {
    const real = table(continuous("x", Array.from({ length: 21 }, (_, i) => i)))
    const synthetic = table(continuous("x", [-5, 0, 0.5, 20, 25, 26, null, 10]))
    const [distribution] = columnDistributions(real, synthetic)
    if (distribution?.kind !== "numeric") throw new Error("expected a numeric distribution")
    expect(distribution.edges).toHaveLength(21)
    expect(distribution.edges[0]).toBe(0)
    expect(distribution.edges[20]).toBe(20)
    // The maximum falls in the last bin, which is closed.
    expect(distribution.real.bins[19]).toBeCloseTo(2 / 21)
    expect(distribution.real.bins[0]).toBeCloseTo(1 / 21)
    expect(distribution.synthetic).toEqual({
      below: 1 / 8,
      bins: distribution.synthetic.bins,
      above: 2 / 8,
      missing: 1 / 8
    })
    expect(distribution.synthetic.bins[0]).toBe(2 / 8)
    expect(distribution.synthetic.bins[10]).toBe(1 / 8)
    expect(distribution.synthetic.bins[19]).toBe(1 / 8)
    for (const side of [distribution.real, distribution.synthetic]) expect(sum([side.below, ...side.bins, side.above, side.missing])).toBeCloseTo(1)
  })

  it("gives a constant real column one bin and a column without real values none", () => {
    const [constant, empty] = columnDistributions(
      table(continuous("c", [3, 3, 3]), continuous("e", [null, null, null])),
      table(continuous("c", [3, 4, 2]), continuous("e", [1, null, 2]))
    )
    expect(constant).toMatchObject({ edges: [3, 3], real: { bins: [1] }, synthetic: { below: 1 / 3, bins: [1 / 3], above: 1 / 3 } })
    expect(empty).toMatchObject({ edges: [], real: { missing: 1, bins: [] }, synthetic: { above: 2 / 3, missing: 1 / 3 } })
  })

  it("keeps the 15 most frequent real categories, most frequent first, and pools the rest as other", () => {
    const labels = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(2, "0")}`)
    const realLabels = labels.flatMap((label, i) => Array.from({ length: 20 - i }, () => label))
    const real = table(categorical("city", [...realLabels, null]))
    const synthetic = table(categorical("city", ["c00", "c19", "unseen", null]))
    const [distribution] = columnDistributions(real, synthetic)
    if (distribution?.kind !== "categorical") throw new Error("expected a categorical distribution")
    expect(distribution.categories).toEqual(labels.slice(0, 15))
    expect(distribution.synthetic.categories[0]).toBe(1 / 4)
    expect(distribution.synthetic.other).toBe(2 / 4)
    expect(distribution.synthetic.missing).toBe(1 / 4)
    expect(distribution.real.other).toBeCloseTo((5 + 4 + 3 + 2 + 1) / (realLabels.length + 1))
  })
})

describe("correlationMatrices", () => {
  it("correlates the numeric columns pairwise over rows where both are present, null for a constant column", () => {
    const real = table(continuous("a", [1, 2, 3, 4]), continuous("b", [2, 4, 6, null]), continuous("k", [1, 1, 1, 1]), categorical("s", ["x", "y", "x", "y"]))
    const synthetic = table(continuous("a", [1, 2, 3, 4]), continuous("b", [4, 3, 2, 1]), continuous("k", [1, 2, 1, 2]), categorical("s", ["x", "x", "y", "y"]))
    const matrices = correlationMatrices(real, synthetic)
    expect(matrices.columns).toEqual(["a", "b", "k"])
    expect(matrices.real[0]![1]).toBeCloseTo(1)
    expect(matrices.real[1]![0]).toBeCloseTo(1)
    expect(matrices.real[2]).toEqual([null, null, null])
    expect(matrices.synthetic[0]![1]).toBeCloseTo(-1)
    expect(matrices.synthetic[0]![0]).toBe(1)
  })
})
