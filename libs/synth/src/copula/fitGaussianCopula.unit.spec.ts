import { Result } from "effect"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { makeRandom } from "../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthTable } from "../table.ts"
import { qualityReport } from "../quality/qualityReport.ts"
import { synthTableFromCsv } from "../quality/testing/synthTableFromCsv.ts"
import { fitGaussianCopula, gaussianCopulaFromJSON } from "./fitGaussianCopula.ts"

const continuous = (name: string, type: ContinuousColumn["type"], values: ArrayLike<number>, missing: Uint8Array | null = null): ContinuousColumn => ({
  kind: "continuous", name, type, values: Float64Array.from(values), missing, sourceFormat: null
})
const categorical = (name: string, categories: ReadonlyArray<string>, codes: ArrayLike<number>): CategoricalColumn => ({
  kind: "categorical", name, type: "string", categories, codes: Int32Array.from(codes)
})
const column = <K extends "continuous" | "categorical">(table: SynthTable, name: string, _kind: K) =>
  table.columns.find((c) => c.name === name) as K extends "continuous" ? ContinuousColumn : CategoricalColumn

const moments = (values: Float64Array) => {
  const mean = values.reduce((s, v) => s + v, 0) / values.length
  return { mean, std: Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length) }
}
const correlation = (x: Float64Array, y: Float64Array) => {
  const mx = moments(x), my = moments(y)
  return x.reduce((s, v, i) => s + (v - mx.mean) * (y[i]! - my.mean), 0) / x.length / (mx.std * my.std)
}

/** x ~ N(5, 2), y = 0.7·x-score + noise (ρ = 0.7), a category driven by x, nulls in y where x is low. */
const knownTable = (rows: number): SynthTable => {
  const random = makeRandom(11)
  const x = new Float64Array(rows), y = new Float64Array(rows), missing = new Uint8Array(rows), codes = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    const a = random.normal(), b = random.normal()
    x[i] = 5 + 2 * a
    y[i] = 100 + 10 * (0.7 * a + Math.sqrt(1 - 0.49) * b)
    codes[i] = a > 0.5 ? 0 : a > -0.5 ? 1 : random.next() < 0.5 ? 2 : -1
    if (random.next() < (a < 0 ? 0.3 : 0.05)) {
      missing[i] = 1
      y[i] = 0
    }
  }
  return {
    rowCount: rows,
    columns: [continuous("x", "float", x), continuous("y", "float", y, missing), categorical("tier", ["gold", "silver", "bronze", "never used"], codes)]
  }
}

describe("fitGaussianCopula", () => {
  const real = knownTable(20_000)
  const synthetic = fitGaussianCopula(real, { seed: 1 }).sample(20_000, 2)

  it("preserves a bivariate normal's marginals and correlation", () => {
    const x = column(synthetic, "x", "continuous").values
    expect(moments(x).mean).toBeCloseTo(5, 1)
    expect(Math.abs(moments(x).std - 2)).toBeLessThan(0.05)
    const realY = column(real, "y", "continuous"), y = column(synthetic, "y", "continuous")
    const present = (c: ContinuousColumn) => Array.from(c.values.keys()).filter((i) => c.missing?.[i] !== 1)
    const both = present(y)
    const realBoth = present(realY)
    const expected = correlation(Float64Array.from(realBoth, (i) => column(real, "x", "continuous").values[i]!), Float64Array.from(realBoth, (i) => realY.values[i]!))
    const actual = correlation(Float64Array.from(both, (i) => x[i]!), Float64Array.from(both, (i) => y.values[i]!))
    expect(Math.abs(actual - expected)).toBeLessThan(0.03)
    expect(qualityReport(real, synthetic).properties.column_shapes.score).toBeGreaterThan(0.97)
  })

  it("never invents a category and keeps their frequencies, missing included", () => {
    const tier = column(synthetic, "tier", "categorical")
    expect(tier.categories).toEqual(["gold", "silver", "bronze", "never used"])
    const share = (codes: Int32Array, code: number) => codes.filter((c) => c === code).length / codes.length
    expect(tier.codes.every((code) => code >= -1 && code <= 2)).toBe(true)
    for (const code of [-1, 0, 1, 2]) expect(Math.abs(share(tier.codes, code) - share(column(real, "tier", "categorical").codes, code))).toBeLessThan(0.01)
  })

  it("re-injects missing values at the learned rate, where the real data have them", () => {
    const rate = (c: ContinuousColumn, rows: ReadonlyArray<number>) => rows.filter((i) => c.missing?.[i] === 1).length / rows.length
    const all = (t: SynthTable) => Array.from({ length: t.rowCount }, (_, i) => i)
    const low = (t: SynthTable) => all(t).filter((i) => column(t, "x", "continuous").values[i]! < 5)
    expect(Math.abs(rate(column(synthetic, "y", "continuous"), all(synthetic)) - rate(column(real, "y", "continuous"), all(real)))).toBeLessThan(0.01)
    // Missing y is three times as likely where x is low: the null flag's correlation carries that over.
    expect(rate(column(synthetic, "y", "continuous"), low(synthetic))).toBeGreaterThan(0.2)
    expect(column(synthetic, "x", "continuous").missing).toBeNull()
  })

  it("rounds integers, dates and datetimes as learned and keeps every value within the fitted range", () => {
    const random = makeRandom(3)
    const rows = 3000
    const table: SynthTable = {
      rowCount: rows,
      columns: [
        continuous("count", "integer", Array.from({ length: rows }, () => Math.floor(random.next() ** 3 * 40) + 2)),
        continuous("day", "date", Array.from({ length: rows }, () => 18_000 + Math.round(30 * random.normal()))),
        continuous("moment", "datetime", Array.from({ length: rows }, () => 1.62e12 + 60_000 * Math.round(1000 * random.next()))),
        continuous("price", "float", Array.from({ length: rows }, () => Math.round(100 * (5 + random.normal())) / 100))
      ]
    }
    const sampled = fitGaussianCopula(table, { seed: 4 }).sample(10_000, 5)
    for (const [name, step] of [["count", 1], ["day", 1], ["moment", 60_000]] as const) {
      const original = column(table, name, "continuous").values, values = column(sampled, name, "continuous").values
      const min = Math.min(...original), max = Math.max(...original)
      expect(values.every((v) => v % step === 0 && v >= min && v <= max), name).toBe(true)
    }
    expect(column(sampled, "price", "continuous").values.every((v) => Math.round(v * 100) / 100 === v)).toBe(true)
  })

  it("is reproducible from its seeds", () => {
    const again = fitGaussianCopula(real, { seed: 1 }).sample(20_000, 2)
    expect(again).toEqual(synthetic)
    const otherSample = fitGaussianCopula(real, { seed: 1 }).sample(20_000, 3)
    expect(column(otherSample, "x", "continuous").values).not.toEqual(column(synthetic, "x", "continuous").values)
  })

  it("samples the same rows after a round trip through its JSON artifact", () => {
    const fitted = fitGaussianCopula(real, { seed: 1 })
    const artifact = JSON.parse(JSON.stringify(fitted.toJSON()))
    expect(artifact).toMatchObject({ format: "synth.gaussian-copula", version: 1 })
    const restored = gaussianCopulaFromJSON(artifact)
    expect(Result.isSuccess(restored)).toBe(true)
    expect(Result.getOrThrow(restored).sample(5000, 9)).toEqual(fitted.sample(5000, 9))
    expect(Result.getOrThrow(restored).toJSON()).toEqual(artifact)
    expect(Result.isFailure(gaussianCopulaFromJSON({ ...artifact, version: 2 }))).toBe(true)
    expect(Result.isFailure(gaussianCopulaFromJSON({ ...artifact, correlation: [[1]] }))).toBe(true)
  })

  it("keeps memory to one latent per column for a 1,000-category column", () => {
    const random = makeRandom(8)
    const rows = 50_000
    const codes = Int32Array.from({ length: rows }, () => Math.floor(1000 * random.next() ** 2))
    const table: SynthTable = { rowCount: rows, columns: [categorical("city", Array.from({ length: 1000 }, (_, i) => `c${i}`), codes)] }
    const fitted = fitGaussianCopula(table, { seed: 1 })
    expect(fitted.toJSON().correlation).toEqual([[1]])
    const sampled = column(fitted.sample(rows, 2), "city", "categorical")
    // 1,000 frequencies from 50,000 draws: sampling noise alone puts TV near 0.07.
    expect(qualityReport(table, { rowCount: rows, columns: [sampled] }).score).toBeGreaterThan(0.9)
    expect(sampled.codes.every((code) => code >= 0 && code < 1000)).toBe(true)
  })

  it("handles columns that are all missing, constant, or a single row", () => {
    const rows = 50
    const table: SynthTable = {
      rowCount: rows,
      columns: [
        continuous("gone", "float", new Float64Array(rows), new Uint8Array(rows).fill(1)),
        continuous("same", "integer", new Float64Array(rows).fill(7)),
        categorical("none", ["a"], new Int32Array(rows).fill(-1))
      ]
    }
    const sampled = fitGaussianCopula(table, { seed: 1 }).sample(100, 2)
    expect(column(sampled, "gone", "continuous").missing?.every((flag) => flag === 1)).toBe(true)
    expect(column(sampled, "same", "continuous").values.every((v) => v === 7)).toBe(true)
    expect(column(sampled, "none", "categorical").codes.every((code) => code === -1)).toBe(true)
    const single = fitGaussianCopula({ rowCount: 1, columns: [continuous("x", "float", [1.5]), categorical("c", ["k"], [0])] }, { seed: 1 })
    expect(single.sample(3, 1).columns.map((c) => (c.kind === "continuous" ? Array.from(c.values) : Array.from(c.codes)))).toEqual([[1.5, 1.5, 1.5], [0, 0, 0]])
    expect(fitGaussianCopula(table, { seed: 1 }).sample(0, 1).rowCount).toBe(0)
    expect(() => fitGaussianCopula({ rowCount: 0, columns: [] }, { seed: 1 })).toThrow(/at least one row/)
  })

  it("reaches a quality score of at least 0.85 on diamonds", async () => {
    const diamonds = await synthTableFromCsv(fileURLToPath(new URL("../../../../test/fixtures/datasets/diamonds.csv", import.meta.url)))
    const sampled = fitGaussianCopula(diamonds, { seed: 1 }).sample(diamonds.rowCount, 2)
    expect(qualityReport(diamonds, sampled).score).toBeGreaterThanOrEqual(0.85)
  })
})
