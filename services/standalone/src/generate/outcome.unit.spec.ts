import { describe, expect, it } from "@effect/vitest"
import { DatasetId, GeneratorId } from "@synth/contracts"
import { Result } from "effect"
import { outcomeOf } from "./outcome.ts"

const id = GeneratorId.make("01a20498-101c-71da-817c-00660d00da85")
const output = DatasetId.make("01a20498-1ab7-71be-8070-be0746545cee")
const parameters = { num_rows: 200, epochs: null, batch_size: null, target_epsilon: null }

describe("outcomeOf", () => {
  it("names the output dataset and how to download it when the job completed", () => {
    expect(outcomeOf({ id, status: "completed", output_dataset_id: output, parameters, error: null })).toEqual(
      Result.succeed(`Generated 200 rows: dataset ${output}. Download it with synth download ${output}.`)
    )
  })

  it("gives the reason of a failed job", () => {
    const error = { code: "training_failed", reason: "dataset_unavailable", message: "The dataset was deleted." } as const
    expect(outcomeOf({ id, status: "failed", output_dataset_id: null, parameters, error })).toEqual(
      Result.fail(`generator ${id} failed (dataset_unavailable): The dataset was deleted.`)
    )
  })

  it("says a cancelled job produced nothing", () => {
    const outcome = outcomeOf({ id, status: "cancelled", output_dataset_id: null, parameters, error: null })
    expect(outcome).toEqual(Result.fail(`generator ${id} was cancelled before it finished; no rows were generated`))
  })
})
