import { Result } from "effect"
import type { EndedGenerator } from "./follow.ts"

type Ended = Pick<EndedGenerator, "id" | "status" | "output_dataset_id" | "parameters" | "error">

/**
 * What `synth generate --follow` says when the job is over: the line naming the output dataset (right), or why there
 * are no rows (left, printed as `synth: ...` with exit code 1).
 */
export const outcomeOf = (record: Ended): Result.Result<string, string> => {
  switch (record.status) {
    case "completed": {
      const output = record.output_dataset_id ?? "?"
      return Result.succeed(
        `Generated ${record.parameters.num_rows} rows: dataset ${output}. Download it with synth download ${output}.`
      )
    }
    case "failed":
      return Result.fail(
        record.error === null
          ? `generator ${record.id} failed without a reason; see GET /generators/${record.id}`
          : `generator ${record.id} failed (${record.error.reason}): ${record.error.message}`
      )
    case "cancelled":
      return Result.fail(`generator ${record.id} was cancelled before it finished; no rows were generated`)
  }
}
