import { Data, Result } from "effect"
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
  /**
   * dp-ctgan: a secret the training's draws are keyed with, so that its noise cannot be replayed by someone who knows
   * the seed (which the record shows). The service passes one derived from a secret of its own; the same secret and
   * seed train the same model. Without it (tests, benchmarks) the draws come from the seed alone.
   */
  readonly noiseSecret?: string
  /**
   * Threads a neural training may use (1 by default): 2 trains CTGAN and TVAE data parallel on two threads; the
   * copula and DP-CTGAN always use one.
   */
  readonly threads?: 1 | 2
  /** Fraction of the fit done, 0..1, as often as the model can tell. */
  readonly onFitProgress?: (fraction: number) => void
  /** One finished epoch's losses (neural models). */
  readonly onEpoch?: (epoch: number, losses: Readonly<Record<string, number>>) => void
}

/**
 * What a differentially private model spent (dp-ctgan only), as its generator record reports it. The guarantee
 * covers everything the model learned from the table: its preprocessing (row count, bounds, categories, missing
 * values: DP releases) composed with DP-SGD by basic composition.
 */
export interface TrainingPrivacy {
  readonly targetEpsilon: number
  /** The composed total, budget.preprocessing + budget.training: never above targetEpsilon. */
  readonly epsilonSpent: number
  /** The composed total δ: the preprocessing's releases' plus DP-SGD's, at most min(1e-5, 1/(10·ñ)), ñ the released row count. */
  readonly delta: number
  readonly noiseMultiplier: number
  /** Discriminator steps taken (fewer than planned when the budget ran out first). */
  readonly steps: number
  readonly stoppedEarly: boolean
  /** ε's two parts: the preprocessing's (a fixed share of the target) and what DP-SGD spent. */
  readonly budget: { readonly preprocessing: number; readonly training: number }
}

/** A fitted generator: it samples, and it stores itself as a versioned JSON artifact that `loadModel` reads back. */
export interface TrainedModel {
  readonly format: string
  readonly formatVersion: number
  readonly sample: (rows: number, seed: number, onProgress?: (rowsDone: number) => void) => SynthTable
  /**
   * Rows drawn with the model steered towards categories (CTGAN's conditional vector, set in every row to the rarest
   * of them it knows), so that rows meeting a condition are common; the caller still checks each row. Absent: the
   * model cannot be steered, and conditions are met by rejection alone.
   */
  readonly sampleConditioned?: (
    rows: number,
    seed: number,
    categories: ReadonlyArray<CategoryCondition>,
    onProgress?: (rowsDone: number) => void
  ) => SynthTable
  readonly toJSON: () => unknown
  readonly privacy?: TrainingPrivacy | null
}

/** A categorical column's label a conditional sample asks for. */
export interface CategoryCondition {
  readonly column: string
  readonly label: string
}

/** A generator type this build cannot train (the neural models arrive with their own issue). */
export class GeneratorUnavailable extends Data.TaggedError("GeneratorUnavailable")<{ readonly generator: GeneratorKind }> {}

export class ModelArtifactError extends Data.TaggedError("ModelArtifactError")<{ readonly message: string }> {}

/**
 * The options describe no training this model can do (e.g. a privacy budget too small for even one step); the
 * gateway checks the same rules before accepting a job, so this is the last line, not the usual path.
 */
export class TrainingRefused extends Data.TaggedError("TrainingRefused")<{ readonly message: string }> {}

/** The table gives the model nothing to learn from (no rows, or no columns). */
export class NothingToLearn extends Data.TaggedError("NothingToLearn")<{ readonly message: string }> {}

const emptiness = (table: SynthTable): NothingToLearn | null =>
  table.columns.length === 0
    ? new NothingToLearn({ message: "the table has no columns" })
    : table.rowCount === 0
    ? new NothingToLearn({ message: "the table has no rows" })
    : null

const fitCopula = (table: SynthTable, options: TrainingOptions): Result.Result<TrainedModel, NothingToLearn> => {
  options.onFitProgress?.(0)
  const fitted = Result.try({
    try: () => fitGaussianCopula(table, { seed: options.seed }),
    catch: (error) => error
  })
  if (Result.isFailure(fitted)) {
    // Only the documented refusal becomes a value; anything else is a bug and keeps propagating.
    if (fitted.failure instanceof CopulaFitError) return Result.fail(new NothingToLearn({ message: fitted.failure.message }))
    throw fitted.failure
  }
  options.onFitProgress?.(1)
  return Result.succeed({ format: "synth.gaussian-copula", formatVersion: 1, ...fitted.success })
}

/** Each model names its own losses (generator and discriminator, or loss); a job records them all by name. */
const reportEpoch = (onEpoch: NonNullable<TrainingOptions["onEpoch"]>) => (epoch: number, losses: object) =>
  onEpoch(epoch, { ...(losses as Readonly<Record<string, number>>) })

/** SDV's defaults, used when a caller (a test, a benchmark) leaves them out; the gateway always sets both. */
const DEFAULT_EPOCHS = 300
const DEFAULT_BATCH_SIZE = 500

/**
 * Fits a generator of the given type on the table: CPU work that blocks for its whole length, so run it off the
 * event loop (the generation service runs it in a worker thread). The neural models are loaded on first use: they
 * bring TensorFlow.js and its WebAssembly backend, which the gateway (a user of this module) must not load.
 */
export const trainModel = async (
  generator: GeneratorKind,
  table: SynthTable,
  options: TrainingOptions
): Promise<Result.Result<TrainedModel, GeneratorUnavailable | NothingToLearn | TrainingRefused>> => {
  const empty = emptiness(table)
  if (empty !== null && generator !== "gaussian_copula") return Result.fail(empty)
  const epochs = options.epochs ?? DEFAULT_EPOCHS
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  const neural = {
    seed: options.seed,
    epochs,
    batchSize,
    threads: options.threads ?? 1,
    ...(options.onEpoch === undefined ? {} : { onEpoch: reportEpoch(options.onEpoch) }),
    ...(options.onFitProgress === undefined ? {} : { onProgress: options.onFitProgress })
  }
  switch (generator) {
    case "gaussian_copula":
      return fitCopula(table, options)
    case "ctgan": {
      const { fitCtgan } = await import("../neural/ctgan/index.ts")
      return refusalOrModel(CTGAN_FORMAT, () => fitCtgan(table, neural))
    }
    case "dp-ctgan": {
      // The gateway refuses a dp-ctgan request without a budget (invalid_epsilon), so getting here without one is a bug.
      if (options.targetEpsilon === null) throw new Error("dp-ctgan training needs a target epsilon")
      const { fitCtgan } = await import("../neural/ctgan/index.ts")
      const dp = { targetEpsilon: options.targetEpsilon, ...(options.noiseSecret === undefined ? {} : { noiseSecret: options.noiseSecret }) }
      return refusalOrModel(CTGAN_FORMAT, () => fitCtgan(table, { ...neural, dp }))
    }
    case "tvae": {
      const { fitTvae } = await import("../neural/tvae/index.ts")
      const model = await fitTvae(table, neural)
      return Result.succeed({ format: TVAE_FORMAT, formatVersion: 1, ...neuralModel(model) })
    }
    default:
      return Result.fail(new GeneratorUnavailable({ generator }))
  }
}

const CTGAN_FORMAT = "synth.ctgan"
const TVAE_FORMAT = "synth.tvae"

/** What a neural model says it spent (DP-CTGAN: more than a record reports, e.g. the ledger of its releases). */
interface ModelPrivacy extends Omit<TrainingPrivacy, "budget"> {
  readonly budget: TrainingPrivacy["budget"] | null
}

interface NeuralModel {
  readonly sample: TrainedModel["sample"]
  readonly sampleConditioned?: TrainedModel["sampleConditioned"]
  readonly toJSON: () => unknown
  readonly privacy?: ModelPrivacy | null
}

/**
 * The record's fields only (the ledger stays in the artifact). A DP-CTGAN stored before its preprocessing was
 * accounted has no budget: its ε covered DP-SGD alone, so no end-to-end guarantee is reported for it.
 */
const trainingPrivacyOf = (privacy: ModelPrivacy | null | undefined): TrainingPrivacy | null =>
  privacy === null || privacy === undefined || privacy.budget === null
    ? null
    : {
      targetEpsilon: privacy.targetEpsilon,
      epsilonSpent: privacy.epsilonSpent,
      delta: privacy.delta,
      noiseMultiplier: privacy.noiseMultiplier,
      steps: privacy.steps,
      stoppedEarly: privacy.stoppedEarly,
      budget: { preprocessing: privacy.budget.preprocessing, training: privacy.budget.training }
    }

/** The parts of a neural model a job needs (the models carry more, e.g. their loss history). */
const neuralModel = (model: NeuralModel) => ({
  sample: model.sample,
  ...(model.sampleConditioned === undefined ? {} : { sampleConditioned: model.sampleConditioned }),
  toJSON: model.toJSON,
  privacy: trainingPrivacyOf(model.privacy)
})

const CTGAN_REFUSALS: ReadonlySet<string> = new Set(["CtganOptionsError", "InvalidEpsilon", "PrivacyBudgetExceeded"])

/** CTGAN's documented refusals become a TrainingRefused value; anything else is a bug and keeps propagating. */
const refusalOrModel = async (
  format: string,
  fit: () => Promise<NeuralModel>
): Promise<Result.Result<TrainedModel, TrainingRefused>> => {
  try {
    return Result.succeed({ format, formatVersion: 1, ...neuralModel(await fit()) })
  } catch (error) {
    const tag = typeof error === "object" && error !== null ? (error as { _tag?: unknown })._tag : undefined
    if (typeof tag === "string" && CTGAN_REFUSALS.has(tag)) {
      return Result.fail(new TrainingRefused({ message: (error as { message: string }).message }))
    }
    throw error
  }
}

const artifactFormat = (artifact: unknown) =>
  typeof artifact === "object" && artifact !== null ? (artifact as { format?: unknown }).format : undefined

/** A stored artifact back as a model that samples exactly what the trained one did. */
export const loadModel = async (artifact: unknown): Promise<Result.Result<TrainedModel, ModelArtifactError>> => {
  const format = artifactFormat(artifact)
  const refused = (error: { readonly message: string }) => Result.fail(new ModelArtifactError({ message: error.message }))
  switch (format) {
    case "synth.gaussian-copula":
      return Result.match(gaussianCopulaFromJSON(artifact), {
        onFailure: refused,
        onSuccess: (fitted) => Result.succeed({ format: "synth.gaussian-copula", formatVersion: 1, ...fitted })
      })
    case CTGAN_FORMAT: {
      const { ctganFromJSON } = await import("../neural/ctgan/index.ts")
      return Result.match(await ctganFromJSON(artifact), {
        onFailure: refused,
        onSuccess: (model) => Result.succeed({ format: CTGAN_FORMAT, formatVersion: 1, ...neuralModel(model) })
      })
    }
    case TVAE_FORMAT: {
      const { tvaeFromJSON } = await import("../neural/tvae/index.ts")
      return Result.match(await tvaeFromJSON(artifact), {
        onFailure: refused,
        onSuccess: (model) => Result.succeed({ format: TVAE_FORMAT, formatVersion: 1, ...neuralModel(model) })
      })
    }
    default:
      return Result.fail(new ModelArtifactError({ message: `unknown model artifact format ${JSON.stringify(format)}` }))
  }
}
