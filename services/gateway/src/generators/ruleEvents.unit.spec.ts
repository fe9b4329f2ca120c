import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { GeneratorFailed, GeneratorRequested, GeneratorSampleFailed, GeneratorSampleRequested } from "@synth/contracts"

// Issue 26 added optional fields and failure reasons to published v1 events: what was written before must still read.
const ids = {
  generatorId: "0193a000-0000-7000-8000-000000000001",
  ownerId: "0193a000-0000-7000-8000-000000000002",
  datasetId: "0193a000-0000-7000-8000-000000000003",
  outputDatasetId: "0193a000-0000-7000-8000-000000000004"
}

const requested = {
  generatorId: ids.generatorId,
  ownerId: ids.ownerId,
  datasetId: ids.datasetId,
  generatorType: "gaussian_copula",
  parameters: { numRows: 10, epochs: null, batchSize: null, targetEpsilon: null },
  seed: 1,
  outputDatasetId: ids.outputDatasetId,
  outputFilename: "a-synthetic.csv",
  estimatedSeconds: 1
}

const sampleRequested = {
  generatorId: ids.generatorId,
  ownerId: ids.ownerId,
  outputDatasetId: ids.outputDatasetId,
  outputFilename: "a-sample-1.csv",
  numRows: 5,
  seed: 1
}

describe("generator events with constraints and conditions", () => {
  it("still read the requests written before them, and read the rules as written", () => {
    expect(Schema.decodeUnknownSync(GeneratorRequested.payload)(requested)).not.toHaveProperty("constraints")
    const constraints = [{ type: "inequality", low: "a", high: "b" }]
    const conditions = { city: "Paris", age: { min: 30 } }
    expect(Schema.decodeUnknownSync(GeneratorRequested.payload)({ ...requested, constraints, conditions }))
      .toMatchObject({ constraints, conditions })
    expect(Schema.decodeUnknownSync(GeneratorSampleRequested.payload)(sampleRequested)).not.toHaveProperty("conditions")
    expect(Schema.decodeUnknownSync(GeneratorSampleRequested.payload)({ ...sampleRequested, conditions })).toMatchObject({ conditions })
  })

  it("read the old failure reasons and the rules' new ones; a sample failure with or without one", () => {
    for (const reason of ["training_failed", "worker_lost", "invalid_rules", "constraints_unmet", "conditions_unmet"]) {
      expect(Schema.decodeUnknownSync(GeneratorFailed.payload)({ generatorId: ids.generatorId, attempt: 1, reason, message: "m" }).reason).toBe(reason)
    }
    const failed = { generatorId: ids.generatorId, outputDatasetId: ids.outputDatasetId, message: "m" }
    expect(Schema.decodeUnknownSync(GeneratorSampleFailed.payload)(failed)).toEqual(failed)
    expect(Schema.decodeUnknownSync(GeneratorSampleFailed.payload)({ ...failed, reason: "conditions_unmet" })).toMatchObject({ reason: "conditions_unmet" })
  })
})
