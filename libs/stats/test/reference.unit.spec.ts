// Every number the reference script (reference/profile_reference.py: pandas, numpy, scipy) computed for the shared
// datasets, checked against profile() to 1e-9 relative (1e-12 absolute near zero). Counts, category orders and
// histogram counts must match exactly.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import type { CategoricalColumnProfile, ColumnProfile, NumericColumnProfile, Profile } from "../src/index.ts"
import { profile } from "../src/index.ts"
import { profileInputFromCsv } from "../src/testing/index.ts"

const relativeTolerance = 1e-9
const absoluteTolerance = 1e-12
const datasets = ["diamonds", "telco_churn", "credit_data", "penguins"] as const

interface NumericReference {
  readonly kind: "numeric"
  readonly count: number
  readonly missing_count: number
  readonly unique_count: number
  readonly min: number
  readonly max: number
  readonly mean: number
  readonly std: number | null
  readonly median: number
  readonly quantiles: Record<string, number>
  readonly skewness: number | null
  readonly kurtosis: number | null
  readonly zeros_count: number
  readonly histogram: { readonly bin_edges: Array<number>; readonly counts: Array<number> }
  readonly outliers: {
    readonly lower_bound: number
    readonly upper_bound: number
    readonly count: number
    readonly share: number
    readonly sample_row_indices: Array<number>
  }
}

interface StringReference {
  readonly kind: "string"
  readonly count: number
  readonly missing_count: number
  readonly unique_count: number
  readonly most_frequent: Array<string>
  readonly frequencies: Array<number>
  readonly lengths: { readonly min: number; readonly mean: number; readonly max: number }
}

interface Reference {
  readonly row_count: number
  readonly column_count: number
  readonly columns: Record<string, NumericReference | StringReference>
  readonly correlations: Record<string, number | null>
  readonly associations: Record<string, { readonly method: string; readonly value: number | null }>
  readonly duplicate_row_count: number
  readonly completeness: number
}

const readText = (relative: string) => readFileSync(new URL(relative, import.meta.url), "utf8")

/** Largest relative error seen per dataset, printed at the end so the agreement can be reported. */
const worst = new Map<string, { error: number; where: string }>()

const expectClose = (dataset: string, where: string, actual: number | null | undefined, expected: number | null) => {
  if (expected === null) {
    expect(actual, where).toBeNull()
    return
  }
  expect(typeof actual, where).toBe("number")
  const difference = Math.abs((actual as number) - expected)
  const error = expected === 0 ? difference : difference / Math.abs(expected)
  if (error > (worst.get(dataset)?.error ?? -1)) worst.set(dataset, { error, where })
  if (difference > absoluteTolerance) {
    expect(difference / Math.abs(expected), `${where}: ${actual} vs ${expected}`).toBeLessThanOrEqual(relativeTolerance)
  }
}

const checkNumeric = (dataset: string, column: NumericColumnProfile, expected: NumericReference) => {
  const close = (field: string, actual: number | null | undefined, value: number | null) =>
    expectClose(dataset, `${column.name}.${field}`, actual, value)
  expect(column.type === "integer" || column.type === "float").toBe(true)
  expect(column.missing_count).toBe(expected.missing_count)
  expect(column.unique_count).toBe(expected.unique_count)
  expect(column.zeros_count).toBe(expected.zeros_count)
  close("min", column.min, expected.min)
  close("max", column.max, expected.max)
  close("mean", column.mean, expected.mean)
  close("std", column.std, expected.std)
  close("median", column.median, expected.median)
  close("skewness", column.skewness, expected.skewness)
  close("kurtosis", column.kurtosis, expected.kurtosis)
  for (const [key, value] of Object.entries(expected.quantiles)) {
    close(`quantiles.${key}`, column.quantiles?.[key as keyof NonNullable<typeof column.quantiles>], value)
  }
  expect(column.histogram?.counts).toEqual(expected.histogram.counts)
  expect(column.histogram?.bin_edges.length).toBe(expected.histogram.bin_edges.length)
  expected.histogram.bin_edges.forEach((edge, index) => close(`histogram.bin_edges[${index}]`, column.histogram?.bin_edges[index], edge))
  close("outliers.lower_bound", column.outliers?.lower_bound, expected.outliers.lower_bound)
  close("outliers.upper_bound", column.outliers?.upper_bound, expected.outliers.upper_bound)
  close("outliers.share", column.outliers?.share, expected.outliers.share)
  expect(column.outliers?.count).toBe(expected.outliers.count)
  expect(column.outliers?.sample_row_indices).toEqual(expected.outliers.sample_row_indices)
}

const checkString = (dataset: string, column: CategoricalColumnProfile, expected: StringReference) => {
  expect(column.type).toBe("string")
  expect(column.missing_count).toBe(expected.missing_count)
  expect(column.unique_count).toBe(expected.unique_count)
  expect(column.most_frequent).toEqual(expected.most_frequent)
  expect(column.frequencies).toEqual(expected.frequencies)
  expect(column.lengths?.min).toBe(expected.lengths.min)
  expect(column.lengths?.max).toBe(expected.lengths.max)
  expectClose(dataset, `${column.name}.lengths.mean`, column.lengths?.mean, expected.lengths.mean)
}

const checkColumn = (dataset: string, column: ColumnProfile, expected: NumericReference | StringReference) =>
  expected.kind === "numeric"
    ? checkNumeric(dataset, column as NumericColumnProfile, expected)
    : checkString(dataset, column as CategoricalColumnProfile, expected)

describe.each(datasets)("profile of %s agrees with pandas/numpy/scipy", (dataset) => {
  const reference = JSON.parse(readText(`./fixtures/${dataset}.reference.json`)) as Reference
  const result: Profile = profile(profileInputFromCsv(readText(`../../../test/fixtures/datasets/${dataset}.csv`)))

  it("counts rows, columns and duplicate rows", () => {
    expect(result.row_count).toBe(reference.row_count)
    expect(result.column_count).toBe(reference.column_count)
    expect(result.duplicate_row_count).toBe(reference.duplicate_row_count)
    expectClose(dataset, "completeness", result.data_quality.components.completeness.score, reference.completeness)
  })

  it("summarises every column", () => {
    expect(result.columns.map((column) => column.name)).toEqual(Object.keys(reference.columns))
    for (const column of result.columns) checkColumn(dataset, column, reference.columns[column.name]!)
  })

  it("correlates every numeric pair (Pearson, pairwise complete)", () => {
    expect(Object.keys(result.correlations)).toEqual(Object.keys(reference.correlations))
    for (const [pair, value] of Object.entries(reference.correlations)) {
      expectClose(dataset, `correlations.${pair}`, result.correlations[pair], value)
    }
  })

  it("associates categorical pairs (Cramér's V) and numeric–categorical pairs (η)", () => {
    expect(Object.keys(result.associations)).toEqual(Object.keys(reference.associations))
    for (const [pair, { method, value }] of Object.entries(reference.associations)) {
      expect(result.associations[pair]?.method).toBe(method)
      expectClose(dataset, `associations.${pair}`, result.associations[pair]?.value, value)
    }
    const { error, where } = worst.get(dataset) ?? { error: 0, where: "-" }
    console.log(`${dataset}: largest relative error ${error.toExponential(2)} at ${where}`)
  })
})
