import { Data, Result } from "effect"
import { makeRandom } from "../random.ts"
import type { SynthTable } from "../table.ts"
import { copulaFromArtifact, type CopulaArtifact, type CopulaArtifactError, copulaToArtifact } from "./artifact.ts"
import { fitCategoricalColumn, fitContinuousColumn } from "./columnModels.ts"
import { type CopulaModel, latentsOf } from "./CopulaModel.ts"
import { fitRows } from "./fitRows.ts"
import { latentCorrelation } from "./latentCorrelation.ts"
import { correlationFactor } from "./linalg.ts"
import { sampleCopula } from "./sampleCopula.ts"

export interface GaussianCopulaOptions {
  readonly seed: number
  /** Rows the marginals and correlation are fitted on at most (fitRows.ts); 100,000 by default. */
  readonly maxFitRows?: number
}

export interface FittedCopula {
  /** `rows` new rows with the fitted table's columns; the same seed gives the same table. */
  readonly sample: (rows: number, seed: number, onProgress?: (rowsDone: number) => void) => SynthTable
  /** The versioned artifact (plain JSON data): chosen families, parameters, frequencies, correlation. */
  readonly toJSON: () => CopulaArtifact
}

export class CopulaFitError extends Data.TaggedError("CopulaFitError")<{ readonly message: string }> {}

export const DEFAULT_MAX_FIT_ROWS = 100_000

const fittedCopula = (model: CopulaModel): FittedCopula => ({
  sample: (rows, seed, onProgress) => sampleCopula(model, rows, seed, onProgress),
  toJSON: () => copulaToArtifact(model)
})

/**
 * SDV's GaussianCopulaSynthesizer on a SynthTable: per continuous column a marginal chosen by KS statistic among
 * normal, truncated normal, beta, gamma, uniform and Gaussian KDE (plus a null flag for a column with missing
 * values); per categorical column frequency intervals; the Pearson correlation of all latent normal scores.
 * Throws CopulaFitError for a table without rows.
 */
export const fitGaussianCopula = (table: SynthTable, options: GaussianCopulaOptions): FittedCopula => {
  if (table.rowCount === 0 || table.columns.length === 0) {
    throw new CopulaFitError({ message: "a Gaussian copula needs at least one row and one column to learn from" })
  }
  const random = makeRandom(options.seed)
  const rows = fitRows(table.rowCount, options.maxFitRows ?? DEFAULT_MAX_FIT_ROWS, random.fork())
  const fitted = table.columns.map((column) =>
    column.kind === "continuous" ? fitContinuousColumn(column, rows, random.fork()) : fitCategoricalColumn(column, rows, random.fork())
  )
  const columns = fitted.map(({ model }) => model)
  const latents = latentsOf(columns)
  const { correlation, factor } = correlationFactor(latentCorrelation(fitted.flatMap(({ scores }) => scores)), latents.length)
  return fittedCopula({ trainedRows: table.rowCount, fitRows: rows.length, columns, latents, correlation, factor })
}

/** A fitted copula back from its artifact (`toJSON()`), or why the input is not one. */
export const gaussianCopulaFromJSON = (artifact: unknown): Result.Result<FittedCopula, CopulaArtifactError> =>
  Result.map(copulaFromArtifact(artifact), fittedCopula)
