import { describe, expect, it } from "vitest"
import { profile } from "./computeProfile.ts"
import type { CategoricalColumnProfile, NumericColumnProfile, TemporalColumnProfile } from "./Profile.ts"
import type { ProfileColumn } from "./ProfileInput.ts"

const numeric = (name: string, values: ReadonlyArray<number>, type: "integer" | "float" = "float"): ProfileColumn =>
  ({ name, type, values: Float64Array.from(values) })
const strings = (name: string, values: ReadonlyArray<string | null>): ProfileColumn => {
  const categories = [...new Set(values.filter((value): value is string => value !== null))]
  return { name, type: "string", codes: Int32Array.from(values, (value) => (value === null ? -1 : categories.indexOf(value))), categories }
}
const table = (...columns: Array<ProfileColumn>) =>
  profile({ rowCount: columns[0] === undefined ? 0 : ("codes" in columns[0] ? columns[0].codes : columns[0].values).length, columns })
const numericAt = (result: ReturnType<typeof profile>, index: number) => result.columns[index] as NumericColumnProfile
const categoricalAt = (result: ReturnType<typeof profile>, index: number) => result.columns[index] as CategoricalColumnProfile

describe("profile", () => {
  it("reports an all-missing numeric column with null statistics and warns about it", () => {
    const result = table(numeric("x", [NaN, NaN, NaN]), numeric("y", [1, 2, 3]))
    expect(numericAt(result, 0)).toMatchObject({
      nullable: true, missing_count: 3, unique_count: 0, min: null, max: null, mean: null, std: null,
      median: null, quantiles: null, skewness: null, histogram: null, outliers: null
    })
    expect(result.correlations["x-y"]).toBeNull()
    expect(result.data_quality.warnings).toContainEqual(expect.objectContaining({ kind: "all_missing", column: "x" }))
    expect(result.data_quality.components.completeness.score).toBeCloseTo(0.5, 12)
  })

  it("gives a constant column std 0, no skewness, no correlation and a constant warning", () => {
    const result = table(numeric("c", [0.1, 0.1, 0.1, 0.1, 0.1]), numeric("y", [1, 5, 2, 8, 3]))
    expect(numericAt(result, 0)).toMatchObject({ std: 0, skewness: null, kurtosis: null, unique_count: 1 })
    expect(numericAt(result, 0).histogram).toEqual({ bin_edges: [-0.4, 0.6], counts: [5] })
    expect(numericAt(result, 0).outliers?.count).toBe(0)
    expect(result.correlations["c-y"]).toBeNull()
    expect(result.data_quality.warnings).toContainEqual(expect.objectContaining({ kind: "constant", column: "c" }))
  })

  it("profiles a single row without NaN anywhere in the output", () => {
    const result = table(numeric("x", [4]), strings("s", ["a"]))
    expect(numericAt(result, 0)).toMatchObject({ min: 4, max: 4, mean: 4, median: 4, std: null, skewness: null })
    expect(result.duplicate_row_count).toBe(0)
    expect(result.associations["x-s"]).toEqual({ method: "correlation_ratio", value: null })
    expect(JSON.stringify(result)).not.toContain("NaN")
  })

  it("handles one category, unused categories and missing codes", () => {
    const column: ProfileColumn = { name: "s", type: "string", codes: Int32Array.from([1, 1, -1, 1]), categories: ["unused", "only", ""] }
    const result = table(column, strings("t", ["a", "b", "a", null]))
    expect(categoricalAt(result, 0)).toMatchObject({
      unique_count: 1, missing_count: 1, most_frequent: ["only"], frequencies: [3], lengths: { min: 4, mean: 4, max: 4 }
    })
    expect(result.associations["s-t"]).toEqual({ method: "cramers_v", value: null })
  })

  it("profiles a column with no categories at all", () => {
    const result = table({ name: "s", type: "string", codes: new Int32Array(2).fill(-1), categories: [] })
    expect(categoricalAt(result, 0)).toMatchObject({ unique_count: 0, most_frequent: [], frequencies: [], lengths: null })
  })

  it("orders most_frequent by count, then value, and limits it to topK", () => {
    const result = profile(
      { rowCount: 7, columns: [strings("s", ["b", "c", "a", "c", "b", "d", "a"])] },
      { topK: 3 }
    )
    expect(categoricalAt(result, 0)).toMatchObject({ most_frequent: ["a", "b", "c"], frequencies: [2, 2, 2] })
  })

  it("ignores NaN in numeric statistics and correlates on rows where both are present", () => {
    const result = table(numeric("x", [1, NaN, 3, 4, 5]), numeric("y", [2, 100, NaN, 8, 10]))
    expect(numericAt(result, 0)).toMatchObject({ min: 1, max: 5, mean: 13 / 4, missing_count: 1, unique_count: 4 })
    expect(result.correlations["x-y"]).toBeCloseTo(1, 12)
  })

  it("counts duplicate rows with missing equal to missing and -0 equal to 0", () => {
    const result = table(numeric("x", [1, NaN, 1, NaN, 0]), strings("s", ["a", null, "a", null, "b"]))
    expect(result.duplicate_row_count).toBe(2)
    const signed = table(numeric("x", [0, -0]))
    expect(signed.duplicate_row_count).toBe(1)
    expect(result.data_quality.components.uniqueness.score).toBeCloseTo(0.6, 12)
    expect(result.data_quality.warnings).toContainEqual(expect.objectContaining({ kind: "duplicate_rows" }))
  })

  it("flags identifier-like columns, mixed types and heavy skew", () => {
    const ids = Array.from({ length: 40 }, (_, index) => index + 100)
    const skewed = Array.from({ length: 40 }, (_, index) => (index === 0 ? 1000 : index % 3))
    const mixed = Array.from({ length: 40 }, (_, index) => (index % 4 === 0 ? "n/a" : String(index)))
    const result = table(numeric("id", ids, "integer"), numeric("amount", skewed), strings("code", mixed))
    expect(result.columns[0]?.likely_identifier).toBe(true)
    expect(result.columns[1]?.likely_identifier).toBe(false)
    const kinds = result.data_quality.warnings.map((warning) => `${warning.kind}:${warning.column}`)
    expect(kinds).toEqual(expect.arrayContaining(["likely_identifier:id", "heavy_skew:amount", "mixed_types:code"]))
    expect(result.data_quality.components.consistency.score).toBeCloseTo((1 + 1 + 0.75) / 3, 12)
    expect(result.data_quality.components.accuracy.score).toBeCloseTo(1 - 1 / 80, 12)
  })

  it("takes the caller's consistency evidence and scores the level by the spec's bands", () => {
    const result = profile({ rowCount: 2, columns: [numeric("x", [1, 2])] }, { consistency: { x: 0.2 } })
    expect(result.data_quality.components.consistency.score).toBe(0.2)
    expect(result.data_quality_score).toBeCloseTo(0.8, 12)
    expect(result.data_quality.level).toBe("Good")
  })

  it("summarises dates and datetimes as ISO strings and a range in days", () => {
    const day = 86_400_000
    const result = table(
      { name: "d", type: "date", values: Float64Array.from([10 * day, NaN, 12 * day]) },
      { name: "t", type: "datetime", values: Float64Array.from([0, 1500, NaN]) }
    )
    expect(result.columns[0] as TemporalColumnProfile).toMatchObject({
      min: "1970-01-11", max: "1970-01-13", range_days: 2, missing_count: 1, unique_count: 2
    })
    expect(result.columns[1] as TemporalColumnProfile).toMatchObject({
      min: "1970-01-01T00:00:00.000Z", max: "1970-01-01T00:00:01.500Z"
    })
    expect(result.correlations).toEqual({})
  })

  it("skips associations of columns with more categories than the cap", () => {
    const result = profile(
      { rowCount: 3, columns: [strings("a", ["x", "y", "z"]), strings("b", ["p", "q", "p"]), numeric("n", [1, 2, 3])] },
      { maxAssociationCategories: 2 }
    )
    expect(Object.keys(result.associations)).toEqual(["b-n"])
  })

  it("rejects columns whose length differs from rowCount", () => {
    expect(() => profile({ rowCount: 3, columns: [numeric("x", [1, 2])] })).toThrow(RangeError)
  })
})
