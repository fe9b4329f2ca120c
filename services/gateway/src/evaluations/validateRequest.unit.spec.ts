import { type EvaluationRunRequest, ValidationFailed } from "@synth/contracts"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { type RunContext, validateRun } from "./validateRequest.ts"

const columns = ["species", "island", "bill_length_mm", "body_mass_g"]
const sameColumns: RunContext = { trainingColumns: columns, datasetColumns: [...columns].reverse() }

const request = (fields: Partial<EvaluationRunRequest>): EvaluationRunRequest => ({
  generator_id: "g",
  dataset_id: "d",
  ...fields
})

const valid = (fields: Partial<EvaluationRunRequest>, context = sameColumns) => {
  const result = validateRun(request(fields), context)
  if (Result.isFailure(result)) throw new Error(`expected a valid request, got ${JSON.stringify(result.failure.errors)}`)
  return result.success
}

const problems = (fields: Partial<EvaluationRunRequest>, context = sameColumns) => {
  const result = validateRun(request(fields), context)
  if (Result.isSuccess(result)) throw new Error("expected the request to be refused")
  expect(result.failure).toBeInstanceOf(ValidationFailed)
  expect(result.failure.status).toBe(422)
  return result.failure.errors
}
const fields = (request: Partial<EvaluationRunRequest>, context = sameColumns) => problems(request, context).map(({ field }) => field)

describe("validateRun", () => {
  it("fills every default: 10,000 rows, both algorithms, test_size 0.2, 3 folds, random_state 0, inferred target", () => {
    expect(valid({})).toEqual({
      sampleSize: 10_000,
      mlUtility: { algorithms: ["random_forest", "xgboost"], testSize: 0.2, crossValidationFolds: 3, randomState: 0, targetColumn: null }
    })
    expect(valid({ ml_utility_config: null, evaluation_sample_size: null }).sampleSize).toBe(10_000)
  })

  it("keeps what is given", () => {
    expect(valid({
      evaluation_sample_size: 20_000,
      ml_utility_config: { algorithms: ["xgboost", "random_forest"], test_size: 0.3, cross_validation_folds: 10, random_state: 0 },
      target_column: "species"
    })).toEqual({
      sampleSize: 20_000,
      mlUtility: { algorithms: ["xgboost", "random_forest"], testSize: 0.3, crossValidationFolds: 10, randomState: 0, targetColumn: "species" }
    })
    expect(valid({ ml_utility_config: { target_column: "island" } }).mlUtility.targetColumn).toBe("island")
    expect(valid({ ml_utility_config: { target_column: "island" }, target_column: "island" }).mlUtility.targetColumn).toBe("island")
  })

  it("bounds evaluation_sample_size to whole numbers from 1 to 20,000", () => {
    expect(valid({ evaluation_sample_size: 1 }).sampleSize).toBe(1)
    for (const evaluation_sample_size of [0, -5, 20_001, 2.5, Number.NaN]) {
      expect(fields({ evaluation_sample_size })).toEqual(["evaluation_sample_size"])
    }
  })

  it("asks for a non-empty list of known algorithms without duplicates", () => {
    const config = (algorithms: ReadonlyArray<string>) => ({ ml_utility_config: { algorithms } })
    expect(problems(config([]))).toEqual([{ field: "ml_utility_config.algorithms", message: "must name at least one of random_forest, xgboost" }])
    expect(problems(config(["svm", "random_forest"]))[0]!.message).toContain("\"svm\"")
    expect(problems(config(["xgboost", "xgboost"]))[0]!.message).toBe("must not name an algorithm twice")
  })

  it("bounds test_size to (0, 1), folds to 2..10 and random_state to 0..2^32-1", () => {
    for (const test_size of [0, 1, -0.1, 1.5, Number.NaN]) {
      expect(fields({ ml_utility_config: { test_size } })).toEqual(["ml_utility_config.test_size"])
    }
    for (const cross_validation_folds of [1, 11, 2.5]) {
      expect(fields({ ml_utility_config: { cross_validation_folds } })).toEqual(["ml_utility_config.cross_validation_folds"])
    }
    for (const random_state of [-1, 0.5, 4_294_967_296]) {
      expect(fields({ ml_utility_config: { random_state } })).toEqual(["ml_utility_config.random_state"])
    }
  })

  it("wants target_column to be a training column, and the two places to agree", () => {
    expect(problems({ target_column: "beak" })[0]!.message).toContain("\"species\", \"island\"")
    expect(fields({ ml_utility_config: { target_column: "beak" } })).toEqual(["target_column"])
    expect(fields({ ml_utility_config: { target_column: "island" }, target_column: "species" })).toEqual(["target_column"])
  })

  it("names dataset_id when its columns are not the training dataset's, saying which differ", () => {
    const other: RunContext = { trainingColumns: columns, datasetColumns: ["species", "island", "flipper_length_mm"] }
    const [problem] = problems({}, other)
    expect(problem!.field).toBe("dataset_id")
    expect(problem!.message).toContain("lacks \"bill_length_mm\", \"body_mass_g\"")
    expect(problem!.message).toContain("has \"flipper_length_mm\"")
  })

  it("reports every problem at once", () => {
    expect(fields({
      evaluation_sample_size: 0,
      ml_utility_config: { algorithms: [], test_size: 2, cross_validation_folds: 1, random_state: -1 },
      target_column: "nope"
    })).toEqual([
      "evaluation_sample_size",
      "ml_utility_config.algorithms",
      "ml_utility_config.test_size",
      "ml_utility_config.cross_validation_folds",
      "ml_utility_config.random_state",
      "target_column"
    ])
  })
})
