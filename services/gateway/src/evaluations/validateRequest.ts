import {
  evaluationBounds,
  type EvaluationRunRequest,
  type FieldError,
  type MlUtilityConfig,
  ValidationFailed
} from "@synth/contracts"
import { Result } from "effect"
import { wholeIn } from "../generators/validateRequest.ts"

export interface ValidRun {
  readonly sampleSize: number
  readonly mlUtility: MlUtilityConfig
}

/** What the request is checked against: the column names of the generator's training dataset and of dataset_id. */
export interface RunContext {
  readonly trainingColumns: ReadonlyArray<string>
  readonly datasetColumns: ReadonlyArray<string>
}

const algorithms: ReadonlyArray<string> = evaluationBounds.algorithms.allowed

const algorithmsProblem = (given: ReadonlyArray<string>): string | null => {
  if (given.length === 0) return `must name at least one of ${algorithms.join(", ")}`
  const unknown = given.filter((algorithm) => !algorithms.includes(algorithm))
  if (unknown.length > 0) return `must be among ${algorithms.join(", ")} (got ${unknown.map((name) => JSON.stringify(name)).join(", ")})`
  if (new Set(given).size !== given.length) return "must not name an algorithm twice"
  return null
}

const sameNames = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => {
  const names = new Set(a)
  return names.size === new Set(b).size && b.every((name) => names.has(name))
}

const listed = (names: ReadonlyArray<string>) => names.map((name) => JSON.stringify(name)).join(", ")

/**
 * The evaluation run request's rules (bounds and defaults in `evaluationBounds`, documented on the endpoint and in
 * docs/evaluation.md). Every field problem is reported at once as 422 validation_failed.
 */
export const validateRun = (request: EvaluationRunRequest, context: RunContext): Result.Result<ValidRun, ValidationFailed> => {
  const problems: Array<FieldError> = []
  const add = (problem: FieldError | null) => {
    if (problem !== null) problems.push(problem)
  }
  const { sampleSize: sampleBounds, crossValidationFolds: foldBounds, randomState: stateBounds } = evaluationBounds

  const sampleSize = request.evaluation_sample_size ?? sampleBounds.default
  add(wholeIn("evaluation_sample_size", sampleSize, sampleBounds.min, sampleBounds.max))

  if (!sameNames(context.trainingColumns, context.datasetColumns)) {
    const missing = context.trainingColumns.filter((name) => !context.datasetColumns.includes(name))
    const extra = context.datasetColumns.filter((name) => !context.trainingColumns.includes(name))
    add({
      field: "dataset_id",
      message: "must be the generator's training dataset or a dataset with the same column names" +
        (missing.length > 0 ? `; it lacks ${listed(missing)}` : "") +
        (extra.length > 0 ? `; it has ${listed(extra)} which the training dataset does not` : "")
    })
  }

  const config = request.ml_utility_config ?? {}
  const chosen = config.algorithms ?? evaluationBounds.algorithms.default
  const algorithmProblem = algorithmsProblem(chosen)
  if (algorithmProblem !== null) add({ field: "ml_utility_config.algorithms", message: algorithmProblem })

  const testSize = config.test_size ?? evaluationBounds.testSize.default
  if (!(Number.isFinite(testSize) && testSize > 0 && testSize < 1)) {
    add({ field: "ml_utility_config.test_size", message: `must be a fraction strictly between 0 and 1 (got ${JSON.stringify(testSize)})` })
  }
  const folds = config.cross_validation_folds ?? foldBounds.default
  add(wholeIn("ml_utility_config.cross_validation_folds", folds, foldBounds.min, foldBounds.max))
  const randomState = config.random_state ?? stateBounds.default
  add(wholeIn("ml_utility_config.random_state", randomState, 0, stateBounds.max))

  const inside = config.target_column ?? null
  const outside = request.target_column ?? null
  const targetColumn = outside ?? inside
  if (inside !== null && outside !== null && inside !== outside) {
    add({ field: "target_column", message: `differs from ml_utility_config.target_column (${JSON.stringify(inside)}); give one of them` })
  } else if (targetColumn !== null && !context.trainingColumns.includes(targetColumn)) {
    add({
      field: "target_column",
      message: `must be a column of the generator's training dataset (${listed(context.trainingColumns)}), or absent to infer it`
    })
  }

  if (problems.length > 0) {
    return Result.fail(new ValidationFailed({ detail: "The evaluation run request has invalid fields; see errors.", errors: problems }))
  }
  return Result.succeed({
    sampleSize,
    mlUtility: {
      algorithms: chosen as MlUtilityConfig["algorithms"],
      testSize,
      crossValidationFolds: folds,
      randomState,
      targetColumn
    }
  })
}
