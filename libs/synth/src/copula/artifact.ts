import { Data, Result, Schema } from "effect"
import { continuousColumnFields } from "../columnSchema.ts"
import type { ColumnModel } from "./columnModels.ts"
import { type CopulaModel, latentsOf } from "./CopulaModel.ts"
import { type FrequencyIntervals, intervalsFromFrequencies } from "./frequencyIntervals.ts"
import { correlationFactor } from "./linalg.ts"
import { marginalFromJson } from "./marginals/marginalFromJson.ts"
import { buildQuantileTable } from "./marginals/quantileTable.ts"

const Intervals = Schema.Struct({ codes: Schema.Array(Schema.Int), frequencies: Schema.Array(Schema.Number) })

const MarginalJson = Schema.Struct({
  family: Schema.Literals(["normal", "truncated_normal", "beta", "gamma", "uniform", "gaussian_kde", "constant"]),
  params: Schema.Record(Schema.String, Schema.Number),
  quantiles: Schema.optional(Schema.Array(Schema.Number))
})

const ContinuousJson = Schema.Struct({
  ...continuousColumnFields,
  marginal: MarginalJson,
  selection: Schema.Record(Schema.String, Schema.Number),
  missing: Schema.NullOr(Intervals)
})

const CategoricalJson = Schema.Struct({
  kind: Schema.Literal("categorical"),
  name: Schema.String,
  type: Schema.Literals(["string", "boolean"]),
  categories: Schema.Array(Schema.String),
  intervals: Intervals
})

/**
 * The stored form of a fitted copula (JSON). Versioned: a later change of shape adds a version and reads this one.
 * Parametric marginals keep only their parameters (their quantile tables are rebuilt by the same code, so a
 * reloaded copula samples exactly what the fitted one does); a KDE keeps its quantile table.
 */
export const CopulaArtifact = Schema.Struct({
  format: Schema.Literal("synth.gaussian-copula"),
  version: Schema.Literal(1),
  trainedRows: Schema.Int,
  fitRows: Schema.Int,
  columns: Schema.Array(Schema.Union([ContinuousJson, CategoricalJson])),
  /** Row-major correlation of the latents (each column's value, then its null flag when it has one). */
  correlation: Schema.Array(Schema.Array(Schema.Number))
})
export type CopulaArtifact = typeof CopulaArtifact.Type

export class CopulaArtifactError extends Data.TaggedError("CopulaArtifactError")<{ readonly message: string }> {}

const intervalsJson = (intervals: FrequencyIntervals) => ({
  codes: Array.from(intervals.codes),
  frequencies: Array.from(intervals.frequencies)
})

const finiteOnly = (record: Readonly<Record<string, number | undefined>>): Record<string, number> =>
  Object.fromEntries(Object.entries(record).filter((entry): entry is [string, number] => Number.isFinite(entry[1])))

export const copulaToArtifact = (model: CopulaModel): CopulaArtifact => {
  const size = model.latents.length
  return {
    format: "synth.gaussian-copula",
    version: 1,
    trainedRows: model.trainedRows,
    fitRows: model.fitRows,
    columns: model.columns.map((column) =>
      column.kind === "categorical"
        ? { kind: "categorical", name: column.name, type: column.type, categories: [...column.categories], intervals: intervalsJson(column.intervals) }
        : {
            kind: "continuous",
            name: column.name,
            type: column.type,
            sourceFormat: column.sourceFormat,
            min: column.min,
            max: column.max,
            rounding: column.rounding,
            marginal: {
              family: column.marginal.family,
              params: { ...column.marginal.params },
              ...(column.marginal.family === "gaussian_kde" ? { quantiles: Array.from(column.quantiles) } : {})
            },
            selection: finiteOnly(column.selection),
            missing: column.missing === null ? null : intervalsJson(column.missing)
          }
    ),
    correlation: Array.from({ length: size }, (_, i) => Array.from(model.correlation.subarray(i * size, (i + 1) * size)))
  }
}

const intervalsFrom = (json: typeof Intervals.Type) =>
  intervalsFromFrequencies(Int32Array.from(json.codes), Float64Array.from(json.frequencies))

export const copulaFromArtifact = (input: unknown): Result.Result<CopulaModel, CopulaArtifactError> =>
  Result.flatMap(
    Result.mapError(Schema.decodeUnknownResult(CopulaArtifact)(input), (error) =>
      new CopulaArtifactError({ message: `not a Gaussian copula artifact: ${error.message}` })
    ),
    (artifact) =>
      Result.try({
        try: () => modelFromArtifact(artifact),
        catch: (error) => new CopulaArtifactError({ message: `unusable Gaussian copula artifact: ${String(error)}` })
      })
  )

const modelFromArtifact = (artifact: CopulaArtifact): CopulaModel => {
  const columns = artifact.columns.map((column): ColumnModel => {
    if (column.kind === "categorical") {
      return { kind: "categorical", name: column.name, type: column.type, categories: column.categories, intervals: intervalsFrom(column.intervals) }
    }
    const marginal = marginalFromJson(column.marginal)
    return {
      kind: "continuous",
      name: column.name,
      type: column.type,
      sourceFormat: column.sourceFormat,
      min: column.min,
      max: column.max,
      rounding: column.rounding,
      marginal,
      selection: column.selection,
      quantiles: column.marginal.quantiles !== undefined ? Float64Array.from(column.marginal.quantiles) : buildQuantileTable(marginal),
      missing: column.missing === null ? null : intervalsFrom(column.missing)
    }
  })
  const latents = latentsOf(columns)
  const size = latents.length
  if (artifact.correlation.length !== size || artifact.correlation.some((row) => row.length !== size)) {
    throw new Error(`the correlation must be ${size}×${size}, one row and column per latent variable`)
  }
  const { correlation, factor } = correlationFactor(Float64Array.from(artifact.correlation.flat()), size)
  return { trainedRows: artifact.trainedRows, fitRows: artifact.fitRows, columns, latents, correlation, factor }
}
