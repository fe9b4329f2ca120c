// A quick evaluation that outlasts EVALUATION_TIMEOUT (here 1 ms, so always): 202 with the evaluation id and its
// Location, then the record polled to completed holds the quick evaluation's fields in its results.
import { afterAll, beforeAll, expect, it } from "@effect/vitest"
import * as Contract from "@synth/contracts"
import { Schema } from "effect"
import { upload, uploaded } from "../support/datasets.ts"
import { pollEvaluation, requestQuickEvaluation } from "../support/evaluations.ts"
import { generateAndWait } from "../support/generators.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, realDataset } from "../support/upload.ts"

let server: RunningServer
let owner: string
let generator: string

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: { AUTH_RATE_LIMIT_PER_MINUTE: "10000", READ_YOUR_WRITES_TIMEOUT: "60 seconds", EVALUATION_TIMEOUT: "1 millis" },
    readyTimeoutMs: 150_000
  })
  owner = await createAccount(server.baseUrl, "evaluation-pending")
  const penguins = uploaded(await upload(server.baseUrl, owner, "penguins.csv", realDataset("penguins"))).id
  const { final } = await generateAndWait(server.baseUrl, owner, penguins, { generator_type: "gaussian_copula", num_rows: 200, seed: 3 })
  expect(final.status, JSON.stringify(final.error)).toBe("completed")
  generator = final.id
}, 300_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
}, 90_000)

it("answers 202 with the evaluation to poll, which completes with the quick evaluation's fields", async () => {
  const response = await requestQuickEvaluation(server.baseUrl, owner, generator)
  expect(response.status, response.text).toBe(202)
  const pending = Schema.decodeUnknownSync(Contract.EvaluationAccepted)(response.json)
  expect(pending).toMatchObject({ generator_id: generator, status: "running" })
  expect(response.header("location")).toBe(`/evaluations/${pending.evaluation_id}`)
  const record = await pollEvaluation(server.baseUrl, owner, pending.evaluation_id)
  expect(record.status, JSON.stringify(record.error)).toBe("completed")
  expect(record.kind).toBe("quick")
  const results = record.results as Record<string, unknown>
  for (const key of ["overall_score", "quality_level", "statistical_similarity", "recommendations", "columns"]) {
    expect(results, key).toHaveProperty(key)
  }
  expect(results["overall_score"]).toBe(record.overall_score)
}, 200_000)
