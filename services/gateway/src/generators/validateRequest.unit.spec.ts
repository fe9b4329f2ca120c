import { type GenerationRequest, generationBounds, InvalidEpsilon, ValidationFailed } from "@synth/contracts"
import { factsOfColumnTypes, factsOfProfile } from "@synth/synth"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { type GenerationLimits, validateGeneration, validateSample } from "./validateRequest.ts"

const everyType: GenerationLimits = { maxRows: 1_000, trainable: ["ctgan", "dp-ctgan", "tvae", "gaussian_copula"] }
const copulaOnly: GenerationLimits = { maxRows: 1_000, trainable: ["gaussian_copula"] }

const datasetColumns = [
  { name: "email", type: "string" },
  { name: "age", type: "integer" },
  { name: "income", type: "float" },
  { name: "born", type: "date" }
] as const

const sourceFacts = factsOfColumnTypes(datasetColumns)

const defaultPrivacy = {
  columns: {},
  protection: {
    rareCategoryThreshold: 5,
    valueProtection: true,
    rareCategoryProtection: true,
    similarityFilter: true,
    holdoutShare: 0.1
  }
}

const request = (fields: Partial<GenerationRequest>): GenerationRequest => ({ generator_type: "ctgan", num_rows: 100, ...fields })

const valid = (fields: Partial<GenerationRequest>, limits = everyType) => {
  const result = validateGeneration(request(fields), limits, datasetColumns)
  if (Result.isFailure(result)) throw new Error(`expected a valid request, got ${JSON.stringify(result.failure)}`)
  return result.success
}

/** The failure, which must be a ValidationFailed. */
const failed = (result: Result.Result<unknown, unknown>): ValidationFailed => {
  if (Result.isSuccess(result)) throw new Error("expected the request to be refused")
  expect(result.failure).toBeInstanceOf(ValidationFailed)
  return result.failure as ValidationFailed
}
const invalidFields = (fields: Partial<GenerationRequest>, limits = everyType) =>
  failed(validateGeneration(request(fields), limits, datasetColumns)).errors.map((error) => error.field)

describe("validateGeneration", () => {
  it("accepts each neural type with the default epochs and batch size", () => {
    for (const type of ["ctgan", "tvae"] as const) {
      expect(valid({ generator_type: type, num_rows: 250 })).toEqual({
        generatorType: type,
        numRows: 250,
        epochs: generationBounds.epochs.default,
        batchSize: generationBounds.batchSize.default,
        targetEpsilon: null,
        seed: null,
        ignored: [],
        privacy: defaultPrivacy,
        rules: {}
      })
    }
    expect(valid({ generator_type: "dp-ctgan", target_epsilon: 3, seed: 42 })).toEqual({
      generatorType: "dp-ctgan",
      numRows: 100,
      epochs: 300,
      batchSize: 500,
      targetEpsilon: 3,
      seed: 42,
      ignored: [],
      privacy: defaultPrivacy,
      rules: {}
    })
  })

  it("accepts gaussian_copula without epochs or batch size", () => {
    expect(valid({ generator_type: "gaussian_copula", num_rows: 7, seed: 0 }, copulaOnly)).toEqual({
      generatorType: "gaussian_copula",
      numRows: 7,
      epochs: null,
      batchSize: null,
      targetEpsilon: null,
      seed: 0,
      ignored: [],
      privacy: defaultPrivacy,
      rules: {}
    })
  })

  it("keeps the given epochs and batch size of a neural type", () => {
    const accepted = valid({ generator_type: "tvae", epochs: 12, batch_size: 64 })
    expect([accepted.epochs, accepted.batchSize]).toEqual([12, 64])
  })

  it("refuses an unknown generator type, listing the four", () => {
    const error = failed(validateGeneration(request({ generator_type: "gan" }), everyType, datasetColumns))
    expect(error.errors).toEqual([{ field: "generator_type", message: "must be one of ctgan, dp-ctgan, tvae, gaussian_copula" }])
    expect(error.code).toBe("validation_failed")
    expect(error.status).toBe(422)
  })

  it("refuses a type this deployment cannot train, naming the ones it can", () => {
    for (const type of ["ctgan", "tvae"] as const) {
      const error = failed(validateGeneration(request({ generator_type: type }), copulaOnly, datasetColumns))
      expect(error.errors).toHaveLength(1)
      expect(error.errors[0]!.field).toBe("generator_type")
      expect(error.errors[0]!.message).toContain(type)
      expect(error.errors[0]!.message).toMatch(/available: gaussian_copula$/)
    }
  })

  it("bounds num_rows to whole numbers from 1 to the maximum", () => {
    expect(valid({ num_rows: 1 }).numRows).toBe(1)
    expect(valid({ num_rows: 1_000 }).numRows).toBe(1_000)
    for (const num_rows of [0, -1, 1_001, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(invalidFields({ num_rows })).toEqual(["num_rows"])
    }
    const error = failed(validateGeneration(request({ num_rows: 1_001 }), everyType, datasetColumns))
    expect(error.errors[0]!.message).toBe("must be a whole number from 1 to 1000 (got 1001)")
  })

  it("bounds epochs and batch size of neural types", () => {
    const { epochs, batchSize } = generationBounds
    expect(valid({ generator_type: "tvae", epochs: epochs.min, batch_size: batchSize.min }).epochs).toBe(1)
    expect(valid({ generator_type: "tvae", epochs: epochs.max, batch_size: batchSize.max }).batchSize).toBe(10_000)
    expect(invalidFields({ generator_type: "tvae", epochs: 0 })).toEqual(["epochs"])
    expect(invalidFields({ generator_type: "tvae", epochs: epochs.max + 1 })).toEqual(["epochs"])
    expect(invalidFields({ generator_type: "tvae", epochs: 2.5 })).toEqual(["epochs"])
    expect(invalidFields({ generator_type: "ctgan", batch_size: 0 })).toEqual(["batch_size"])
    expect(invalidFields({ generator_type: "tvae", batch_size: 9 })).toEqual(["batch_size"])
    expect(invalidFields({ generator_type: "ctgan", batch_size: batchSize.max + 10 })).toEqual(["batch_size"])
  })

  it("asks ctgan and dp-ctgan for batch sizes in multiples of 10, but not tvae", () => {
    expect(valid({ generator_type: "tvae", batch_size: 64 }).batchSize).toBe(64)
    expect(valid({ generator_type: "ctgan", batch_size: 60 }).batchSize).toBe(60)
    const ctgan = failed(validateGeneration(request({ generator_type: "ctgan", batch_size: 64 }), everyType, datasetColumns))
    expect(ctgan.errors).toHaveLength(1)
    expect(ctgan.errors[0]!.field).toBe("batch_size")
    expect(ctgan.errors[0]!.message).toContain("multiple of 10 for ctgan")
    const dp = failed(validateGeneration(request({ generator_type: "dp-ctgan", batch_size: 55, target_epsilon: 1 }), everyType, datasetColumns))
    expect(dp.errors.map((error) => error.field)).toEqual(["batch_size"])
    expect(dp.errors[0]!.message).toContain("multiple of 10 for dp-ctgan")
  })

  it("lets gaussian_copula ignore epochs, batch size and target_epsilon, even out of bounds, and says so", () => {
    const accepted = valid({ generator_type: "gaussian_copula", epochs: 0, batch_size: 7, target_epsilon: -1 }, copulaOnly)
    expect(accepted.epochs).toBeNull()
    expect(accepted.batchSize).toBeNull()
    expect(accepted.targetEpsilon).toBeNull()
    expect(accepted.ignored).toEqual(["epochs", "batch_size", "target_epsilon"])
    expect(valid({ generator_type: "gaussian_copula", epochs: null, batch_size: null }, copulaOnly).ignored).toEqual([])
  })

  it("names target_epsilon as ignored by ctgan and tvae", () => {
    expect(valid({ generator_type: "ctgan", target_epsilon: 2 }).ignored).toEqual(["target_epsilon"])
    expect(valid({ generator_type: "tvae", target_epsilon: 2 }).targetEpsilon).toBeNull()
  })

  it("answers InvalidEpsilon for an otherwise valid dp-ctgan request with an unacceptable epsilon", () => {
    const cases: ReadonlyArray<[number | null | undefined, string]> = [
      [undefined, "target_epsilon is required for dp-ctgan"],
      [null, "target_epsilon is required for dp-ctgan"],
      [0, "greater than 0 (got 0)"],
      [-2, "greater than 0 (got -2)"],
      [Number.POSITIVE_INFINITY, "greater than 0 (got Infinity)"],
      [Number.NaN, "greater than 0 (got NaN)"],
      [1_000.5, "at most 1000 (got 1000.5)"]
    ]
    for (const [target_epsilon, expected] of cases) {
      const result = validateGeneration(request({ generator_type: "dp-ctgan", target_epsilon }), everyType, datasetColumns)
      if (Result.isSuccess(result)) throw new Error(`epsilon ${target_epsilon} was accepted`)
      expect(result.failure).toBeInstanceOf(InvalidEpsilon)
      expect(result.failure.code).toBe("invalid_epsilon")
      expect(result.failure.detail).toContain(expected)
    }
    expect(valid({ generator_type: "dp-ctgan", target_epsilon: 1_000 }).targetEpsilon).toBe(1_000)
    expect(valid({ generator_type: "dp-ctgan", target_epsilon: 0.01 }).targetEpsilon).toBe(0.01)
  })

  it("lists a bad epsilon among the errors when other fields are wrong too", () => {
    const error = failed(validateGeneration(request({ generator_type: "dp-ctgan", num_rows: 0, target_epsilon: 0 }), everyType, datasetColumns))
    expect(error.errors.map((problem) => problem.field)).toEqual(["num_rows", "target_epsilon"])
    expect(error.errors[1]!.message).toBe("target_epsilon must be greater than 0 (got 0)")
    expect(invalidFields({ generator_type: "dp-ctgan", epochs: 0 })).toEqual(["epochs", "target_epsilon"])
  })

  it("bounds the seed to 0..2^32-1 and keeps it", () => {
    expect(valid({ seed: 0 }).seed).toBe(0)
    expect(valid({ seed: generationBounds.seed.max }).seed).toBe(4_294_967_295)
    expect(valid({ seed: null }).seed).toBeNull()
    for (const seed of [-1, generationBounds.seed.max + 1, 0.5, Number.NaN]) expect(invalidFields({ seed })).toEqual(["seed"])
  })

  it("reports every problem at once", () => {
    const error = failed(
      validateGeneration(request({ generator_type: "ctgan", num_rows: 1.5, seed: -1, epochs: 0, batch_size: 15 }), everyType, datasetColumns)
    )
    expect(error.errors.map((problem) => problem.field)).toEqual(["num_rows", "seed", "epochs", "batch_size"])
    expect(error.detail).toBe("The generation request has invalid fields; see errors.")
    expect(invalidFields({ generator_type: "tvae", num_rows: 0 }, copulaOnly)).toEqual(["generator_type", "num_rows"])
  })

  it("checks no epochs or batch size for an unknown type", () => {
    expect(invalidFields({ generator_type: "unknown", epochs: 0, batch_size: 3 })).toEqual(["generator_type"])
  })
})

describe("validateGeneration's columns and privacy", () => {
  it("takes per-column handlings and protection settings", () => {
    const accepted = valid({
      columns: { email: { handling: "fake" }, age: { handling: "keep" }, income: { handling: "drop" } },
      privacy: { rare_category_threshold: 10, similarity_filter: false, holdout_share: 0.2 }
    })
    expect({ ...accepted.privacy.columns }).toEqual({ email: "fake", age: "keep", income: "drop" })
    expect(accepted.privacy.protection).toEqual({
      rareCategoryThreshold: 10,
      valueProtection: true,
      rareCategoryProtection: true,
      similarityFilter: false,
      holdoutShare: 0.2
    })
  })

  it("names an unknown column, listing the dataset's columns", () => {
    const error = failed(validateGeneration(request({ columns: { emial: { handling: "fake" } } }), everyType, datasetColumns))
    expect(error.errors).toEqual([
      { field: "columns.emial", message: "is not a column of the dataset; its columns are email, age, income, born" }
    ])
  })

  it("names an unknown handling and a handling the column's type cannot take", () => {
    expect(invalidFields({ columns: { email: { handling: "mask" } } })).toEqual(["columns.email.handling"])
    const error = failed(validateGeneration(request({ columns: { income: { handling: "fake" } } }), everyType, datasetColumns))
    expect(error.errors[0]!.message).toContain("income is a float column: use drop, keep or hash")
    expect(valid({ columns: { born: { handling: "fake" }, age: { handling: "fake" } } }).privacy.columns).toEqual({ born: "fake", age: "fake" })
  })

  it("refuses a request that drops every column, saying what to change", () => {
    const everyColumn = Object.fromEntries(datasetColumns.map((column) => [column.name, { handling: "drop" }]))
    const error = failed(validateGeneration(request({ columns: everyColumn }), everyType, datasetColumns))
    expect(error.errors).toEqual([
      { field: "columns", message: "drops every column of the dataset, so there is nothing to generate: keep, fake or hash at least one" }
    ])
  })

  it("treats a column named like an object's prototype as a column name", () => {
    const columns = JSON.parse('{"__proto__": {"handling": "drop"}}') as Record<string, { handling: string }>
    expect(invalidFields({ columns })).toEqual(["columns.__proto__"])
    const withProto = [...datasetColumns, { name: "__proto__", type: "string" as const }]
    const accepted = validateGeneration(request({ columns }), everyType, withProto)
    expect(Result.isSuccess(accepted) && Object.entries(accepted.success.privacy.columns)).toEqual([["__proto__", "drop"]])
  })

  it("bounds k and the holdout share", () => {
    for (const rare_category_threshold of [0, 1.5, 1_001]) {
      expect(invalidFields({ privacy: { rare_category_threshold } })).toEqual(["privacy.rare_category_threshold"])
    }
    for (const holdout_share of [0, 0.01, 0.51, Number.NaN]) {
      expect(invalidFields({ privacy: { holdout_share } })).toEqual(["privacy.holdout_share"])
    }
    expect(valid({ privacy: { rare_category_threshold: 1, holdout_share: 0.5 } }).privacy.protection.rareCategoryThreshold).toBe(1)
  })

  it("reports column problems together with the request's other problems", () => {
    expect(invalidFields({ num_rows: 0, columns: { nope: { handling: "fake" } }, privacy: { holdout_share: 2 } })).toEqual([
      "num_rows",
      "columns.nope",
      "privacy.holdout_share"
    ])
  })
})

describe("validateSample", () => {
  it("accepts rows within the limit, with or without a seed", () => {
    expect(validateSample({ num_rows: 1 }, copulaOnly, sourceFacts)).toEqual(Result.succeed({ numRows: 1, seed: null }))
    expect(validateSample({ num_rows: 1_000, seed: 9 }, copulaOnly, sourceFacts)).toEqual(Result.succeed({ numRows: 1_000, seed: 9 }))
    expect(validateSample({ num_rows: 5, seed: null }, copulaOnly, sourceFacts)).toEqual(Result.succeed({ numRows: 5, seed: null }))
  })

  it("refuses bad rows and seeds, both at once", () => {
    for (const num_rows of [0, 1_001, 1.5, Number.NaN]) {
      expect(failed(validateSample({ num_rows }, copulaOnly, sourceFacts)).errors.map((error) => error.field)).toEqual(["num_rows"])
    }
    expect(failed(validateSample({ num_rows: 3, seed: 2 ** 32 }, copulaOnly, sourceFacts)).errors.map((error) => error.field)).toEqual(["seed"])
    const both = failed(validateSample({ num_rows: 0, seed: -1 }, copulaOnly, sourceFacts))
    expect(both.errors.map((error) => error.field)).toEqual(["num_rows", "seed"])
    expect(both.detail).toBe("The sample request has invalid fields; see errors.")
  })
})

describe("constraints and conditions", () => {
  // What a stored profile tells: city's labels in full, age's range, no repeated ids.
  const profiled = factsOfProfile({
    row_count: 4,
    columns: [
      { name: "id", type: "integer", missing_count: 0, unique_count: 4, min: 1, max: 4 },
      { name: "age", type: "integer", missing_count: 0, unique_count: 3, min: 20, max: 60 },
      { name: "discount", type: "float", missing_count: 0, unique_count: 4, min: 0, max: 0.8 },
      { name: "city", type: "string", missing_count: 0, unique_count: 2, most_frequent: ["Paris", "Lyon"], most_frequent_masked: false },
      { name: "ordered_at", type: "date", missing_count: 0, unique_count: 4, min: "2024-01-01", max: "2024-02-01" },
      { name: "shipped_at", type: "date", missing_count: 0, unique_count: 4, min: "2024-01-02", max: "2024-02-03" }
    ]
  })
  const copula = (fields: Record<string, unknown>) =>
    validateGeneration(request({ generator_type: "gaussian_copula", ...fields } as Partial<GenerationRequest>), copulaOnly, datasetColumns, profiled)
  const fieldsOf = (result: Result.Result<unknown, unknown>) => failed(result).errors.map((error) => error.field)

  it("passes the rules on as the request gave them", () => {
    const constraints = [{ type: "inequality", low: "ordered_at", high: "shipped_at", strict: false }, { type: "unique", columns: ["id"] }]
    const conditions = { city: "Paris", age: { min: 30, max: 40 } }
    const result = copula({ constraints, conditions })
    expect(Result.getOrThrow(result).rules).toEqual({ constraints, conditions })
  })

  it("names every problem by field at once", () => {
    expect(fieldsOf(copula({
      constraints: [
        { type: "inequality", low: "nope", high: "shipped_at" },
        { type: "sideways", column: "age" },
        { type: "range", column: "city", min: 0, max: 1 }
      ],
      conditions: { age: { min: 50, max: 40 }, missing: 1 }
    }))).toEqual(expect.arrayContaining(["constraints[0].low", "constraints[1].type", "constraints[2].column", "conditions.age.min", "conditions.missing"]))
  })

  it("refuses a range the profile shows the data breaks, naming the constraint", () => {
    const refused = failed(copula({ constraints: [{ type: "range", column: "discount", min: 0, max: 0.5 }] }))
    expect(refused.errors).toEqual([{ field: "constraints[0]", message: expect.stringContaining("range discount in [0, 0.5]") }])
  })

  it("refuses a condition value the data never holds", () => {
    expect(fieldsOf(copula({ conditions: { city: "Berlin" } }))).toEqual(["conditions.city"])
  })

  it("checks a sample's conditions against the source dataset", () => {
    expect(fieldsOf(validateSample({ num_rows: 5, conditions: { city: "Berlin", age: "old" } }, copulaOnly, profiled)))
      .toEqual(["conditions.city", "conditions.age"])
    expect(validateSample({ num_rows: 5, conditions: { city: "Lyon" } }, copulaOnly, profiled))
      .toEqual(Result.succeed({ numRows: 5, seed: null, conditions: { city: "Lyon" } }))
  })
})

describe("a sample whose source dataset is gone", () => {
  it("leaves its conditions to the worker", () => {
    expect(validateSample({ num_rows: 5, conditions: { anything: 1 } }, copulaOnly, null))
      .toEqual(Result.succeed({ numRows: 5, seed: null, conditions: { anything: 1 } }))
  })
})
