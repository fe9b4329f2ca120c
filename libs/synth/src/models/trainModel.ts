import { Data, Either } from "effect"
import { CopulaFitError, fitGaussianCopula, gaussianCopulaFromJSON } from "../copula/fitGaussianCopula.ts"
import type { SynthTable } from "../table.ts"
import type { SpeedModelGenerator } from "./speedModel.ts"

export type GeneratorKind = SpeedModelGenerator

/** What every generator takes; a model ignores what it has no use for (the copula has no epochs). */
export interface TrainingOptions {
  readonly seed: number
  readonly epochs: number | null
  readonly batchSize: number | null
  readonly targetEpsilon: number | null
  /** Fraction of the fit done, 0..1, as often as the model can tell. */
  readonly onFitProgress?: (fraction: number) => void
  /** One finished epoch's losses (neural models). */
  readonly onEpoch?: (epoch: number, losses: Readonly<Record<string, number>>) => void
}

/** A fitted generator: it samples, and it stores itself as a versioned JSON artifact that `loadModel` reads back. */
export interface TrainedModel {
  readonly format: string
  readonly formatVersion: number
  readonly sample: (rows: number, seed: number, onProgress?: (rowsDone: number) => void) => SynthTable
  readonly toJSON: () => unknown
}

/** A generator type this build cannot train (the neural models arrive with their own issue). */
export class GeneratorUnavailable extends Data.TaggedError("GeneratorUnavailable")<{ readonly generator: GeneratorKind }> {}

export class ModelArtifactError extends Data.TaggedError("ModelArtifactError")<{ readonly message: string }> {}

/** The generator types trainModel can fit in this build. */
export const trainableGenerators: ReadonlyArray<GeneratorKind> = ["gaussian_copula"]

/** The table gives the model nothing to learn from (no rows, or no columns). */
export class NothingToLearn extends Data.TaggedError("NothingToLearn")<{ readonly message: string }> {}

/** Fits a generator of the given type on the table (synchronous CPU work: run it off the event loop). */
export const trainModel = (
  generator: GeneratorKind,
  table: SynthTable,
  options: TrainingOptions
): Either.Either<TrainedModel, GeneratorUnavailable | NothingToLearn> => {
  switch (generator) {
    case "gaussian_copula": {
      options.onFitProgress?.(0)
      const fitted = Either.try({
        try: () => fitGaussianCopula(table, { seed: options.seed }),
        catch: (error) => error
      })
      if (Either.isLeft(fitted)) {
        // Only the documented refusal becomes a value; anything else is a bug and keeps propagating.
        if (fitted.left instanceof CopulaFitError) return Either.left(new NothingToLearn({ message: fitted.left.message }))
        throw fitted.left
      }
      options.onFitProgress?.(1)
      return Either.right({ format: "synth.gaussian-copula", formatVersion: 1, ...fitted.right })
    }
    default:
      return Either.left(new GeneratorUnavailable({ generator }))
  }
}

/** A stored artifact back as a model that samples exactly what the trained one did. */
export const loadModel = (artifact: unknown): Either.Either<TrainedModel, ModelArtifactError> => {
  const format = typeof artifact === "object" && artifact !== null ? (artifact as { format?: unknown }).format : undefined
  switch (format) {
    case "synth.gaussian-copula":
      return Either.match(gaussianCopulaFromJSON(artifact), {
        onLeft: (error) => Either.left(new ModelArtifactError({ message: error.message })),
        onRight: (fitted) => Either.right({ format: "synth.gaussian-copula", formatVersion: 1, ...fitted })
      })
    default:
      return Either.left(new ModelArtifactError({ message: `unknown model artifact format ${JSON.stringify(format)}` }))
  }
}
