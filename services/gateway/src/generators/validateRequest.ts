import {
  type FieldError,
  generationBounds,
  type GenerationRequest,
  GeneratorType,
  InvalidEpsilon,
  type SampleRequest,
  ValidationFailed
} from "@synth/contracts"
import { type DatasetFacts, factsOfColumnTypes, validateRules } from "@synth/synth/planning"
import { Result } from "effect"
import { type DatasetColumn, validatePrivacy, type ValidPrivacy } from "./validatePrivacy.ts"

export interface ValidGeneration {
  readonly generatorType: GeneratorType
  readonly numRows: number
  readonly epochs: number | null
  readonly batchSize: number | null
  readonly targetEpsilon: number | null
  /** Null: the service picks one. */
  readonly seed: number | null
  /** Fields given but not used by this generator type, said back in the response's message. */
  readonly ignored: ReadonlyArray<string>
  /** The `columns` overrides and the output protections (`privacy`). */
  readonly privacy: ValidPrivacy
  /** The request's rules as it gave them (checked here, parsed again by the worker); absent when not given. */
  readonly rules: RequestedRules
}

export interface RequestedRules {
  readonly constraints?: ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly conditions?: Readonly<Record<string, unknown>>
}

/**
 * The rules' problems by field (`constraints[0].low`, `conditions.age.min`), checked against what the gateway knows
 * of the dataset: its profile when one is stored (ranges, labels, repeats), else its column names and types. What
 * the facts cannot show (breaks of multi-column constraints, exact counts) the worker checks on every row.
 */
const rulesProblems = (request: RequestedRules, facts: DatasetFacts): ReadonlyArray<FieldError> => {
  const validation = validateRules(request, facts)
  return validation.ok ? [] : validation.problems
}

const requestedRules = (request: { readonly constraints?: RequestedRules["constraints"] | null; readonly conditions?: RequestedRules["conditions"] | null }): RequestedRules => ({
  ...(request.constraints == null || request.constraints.length === 0 ? {} : { constraints: request.constraints }),
  ...(request.conditions == null || Object.keys(request.conditions).length === 0 ? {} : { conditions: request.conditions })
})

export interface GenerationLimits {
  readonly maxRows: number
  readonly trainable: ReadonlyArray<GeneratorType>
}

const isWhole = (value: number) => Number.isSafeInteger(value)

/** A whole number in [min, max], or the problem with it. */
export const wholeIn = (field: string, value: number, min: number, max: number): FieldError | null =>
  isWhole(value) && value >= min && value <= max
    ? null
    : { field, message: `must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})` }

const numRowsProblem = (value: number, limits: GenerationLimits) => wholeIn("num_rows", value, 1, limits.maxRows)

const seedProblem = (seed: number | null | undefined) =>
  seed === undefined || seed === null ? null : wholeIn("seed", seed, 0, generationBounds.seed.max)

export const epsilonProblem = (epsilon: number | null | undefined, whenMissing = "target_epsilon is required for dp-ctgan"): string | null => {
  if (epsilon === undefined || epsilon === null) return whenMissing
  if (!Number.isFinite(epsilon) || epsilon <= 0) return `target_epsilon must be greater than 0 (got ${epsilon})`
  if (epsilon > generationBounds.targetEpsilon.max) {
    return `target_epsilon must be at most ${generationBounds.targetEpsilon.max} (got ${epsilon}); about 1 is high ` +
      "privacy, 5 balanced, 10 high utility"
  }
  return null
}

/**
 * The generation request's rules (bounds in `generationBounds`, documented on the endpoint). Every field problem is
 * reported at once (422 validation_failed); an unacceptable target_epsilon on an otherwise valid dp-ctgan request is
 * the spec's own error (422 invalid_epsilon).
 */
export const validateGeneration = (
  request: GenerationRequest,
  limits: GenerationLimits,
  datasetColumns: ReadonlyArray<DatasetColumn>,
  facts: DatasetFacts = factsOfColumnTypes(datasetColumns)
): Result.Result<ValidGeneration, ValidationFailed | InvalidEpsilon> => {
  const problems: Array<FieldError> = []
  const generatorType = GeneratorType.literals.find((type) => type === request.generator_type)
  if (generatorType === undefined) {
    problems.push({ field: "generator_type", message: `must be one of ${GeneratorType.literals.join(", ")}` })
  } else if (!limits.trainable.includes(generatorType)) {
    problems.push({
      field: "generator_type",
      message: `${generatorType} cannot be trained by this version of the service yet; available: ${limits.trainable.join(", ")}`
    })
  }
  const rows = numRowsProblem(request.num_rows, limits)
  if (rows !== null) problems.push(rows)
  const seed = seedProblem(request.seed)
  if (seed !== null) problems.push(seed)
  const neural = generatorType !== undefined && generatorType !== "gaussian_copula"
  const epochs = request.epochs ?? null
  const batchSize = request.batch_size ?? null
  if (neural && epochs !== null) {
    const problem = wholeIn("epochs", epochs, generationBounds.epochs.min, generationBounds.epochs.max)
    if (problem !== null) problems.push(problem)
  }
  if (neural && batchSize !== null) {
    const problem = wholeIn("batch_size", batchSize, generationBounds.batchSize.min, generationBounds.batchSize.max)
    if (problem !== null) problems.push(problem)
    else if ((generatorType === "ctgan" || generatorType === "dp-ctgan") && batchSize % generationBounds.pac !== 0) {
      problems.push({
        field: "batch_size",
        message: `must be a multiple of ${generationBounds.pac} for ${generatorType} (PacGAN packs ${generationBounds.pac} rows per discriminator input)`
      })
    }
  }
  const privacy = validatePrivacy(request, datasetColumns)
  problems.push(...privacy.problems)
  const rules = requestedRules(request)
  problems.push(...rulesProblems(rules, facts))
  const epsilon = generatorType === "dp-ctgan" ? epsilonProblem(request.target_epsilon) : null
  if (problems.length > 0) {
    if (epsilon !== null) problems.push({ field: "target_epsilon", message: epsilon })
    return Result.fail(new ValidationFailed({ detail: "The generation request has invalid fields; see errors.", errors: problems }))
  }
  if (epsilon !== null) return Result.fail(new InvalidEpsilon({ detail: `Invalid epsilon: ${epsilon}.` }))
  const type = generatorType!
  const ignored = [
    ...(!neural && request.epochs != null ? ["epochs"] : []),
    ...(!neural && request.batch_size != null ? ["batch_size"] : []),
    ...(type !== "dp-ctgan" && request.target_epsilon != null ? ["target_epsilon"] : [])
  ]
  return Result.succeed({
    generatorType: type,
    numRows: request.num_rows,
    epochs: neural ? (epochs ?? generationBounds.epochs.default) : null,
    batchSize: neural ? (batchSize ?? generationBounds.batchSize.default) : null,
    targetEpsilon: type === "dp-ctgan" ? request.target_epsilon! : null,
    seed: request.seed ?? null,
    ignored,
    privacy: privacy.valid,
    rules
  })
}

export interface ValidSample {
  readonly numRows: number
  readonly seed: number | null
  readonly conditions: RequestedRules["conditions"]
}

/**
 * `facts`: the generator's source dataset, so a condition naming a value its data never held is a 422 at once; null
 * when that dataset is gone, and the worker alone checks the conditions against the stored model.
 */
export const validateSample = (
  request: SampleRequest,
  limits: GenerationLimits,
  facts: DatasetFacts | null
): Result.Result<ValidSample, ValidationFailed> => {
  const { conditions } = requestedRules({ conditions: request.conditions })
  const problems = [
    ...[numRowsProblem(request.num_rows, limits), seedProblem(request.seed)].filter((problem): problem is FieldError => problem !== null),
    ...(facts === null ? [] : rulesProblems({ ...(conditions === undefined ? {} : { conditions }) }, facts))
  ]
  return problems.length > 0
    ? Result.fail(new ValidationFailed({ detail: "The sample request has invalid fields; see errors.", errors: problems }))
    : Result.succeed({ numRows: request.num_rows, seed: request.seed ?? null, conditions })
}
