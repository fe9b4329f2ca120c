// Black-box end-to-end tests of POST /llm/chat against the standalone runtime started with Node, its model pointed at
// a local OpenAI-compatible server in this process: the model's reply with the evaluation's figures in the prompt
// (and no row of the data), the offline answer when the model fails, and the errors (422, 404, 400).
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@synth/contracts"
import { Schema } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { expectProblem, upload, uploaded } from "../support/datasets.ts"
import { acceptedRun, pollEvaluation, quickResult, requestEvaluationRun, requestQuickEvaluation } from "../support/evaluations.ts"
import { generateAndWait } from "../support/generators.ts"
import { bearer, http, type RawResponse } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, realDataset } from "../support/upload.ts"

let server: RunningServer
let baseUrl: string
let owner: string
let stranger: string
let evaluationId: string
let generatorId: string
let datasetId: string

/** The model's side: records each request's body and answers with `status` (200: a completion citing a figure). */
let model: Server
const modelRequests: Array<string> = []
let modelStatus = 200
const modelReply = "The overall quality score is high [overall_score]; the weakest column is listed [weakest_column.1]."

const startModel = () =>
  new Promise<string>((resolve) => {
    model = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        modelRequests.push(Buffer.concat(chunks).toString("utf8"))
        const body = modelStatus === 200
          ? { choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: modelReply } }] }
          : { error: { message: "unavailable" } }
        response.writeHead(modelStatus, { "content-type": "application/json" }).end(JSON.stringify(body))
      })
    })
    model.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`))
  })

const penguinRows = () => realDataset("penguins").toString("utf8").trim().split("\n").slice(1)

beforeAll(async () => {
  const modelUrl = await startModel()
  server = await startServer({
    runtime: "node",
    env: {
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      RATE_LIMIT_PER_MINUTE: "100000",
      READ_YOUR_WRITES_TIMEOUT: "60 seconds",
      EVALUATION_TIMEOUT: "150 seconds",
      GENERATION_CONCURRENCY: "1",
      OPENAI_API_KEY: "local",
      OPENAI_BASE_URL: modelUrl,
      LLM_MODEL: "local-test-model",
      LLM_CHAT_TIMEOUT: "10 seconds"
    },
    readyTimeoutMs: 150_000
  })
  baseUrl = server.baseUrl
  owner = await createAccount(baseUrl, "chat-owner")
  stranger = await createAccount(baseUrl, "chat-stranger")
  datasetId = uploaded(await upload(baseUrl, owner, "penguins.csv", realDataset("penguins"))).id
  const { final } = await generateAndWait(baseUrl, owner, datasetId, { generator_type: "gaussian_copula", num_rows: 300, seed: 7 })
  expect(final.status, JSON.stringify(final.error)).toBe("completed")
  generatorId = final.id
  evaluationId = quickResult(await requestQuickEvaluation(baseUrl, owner, generatorId)).evaluation_id
}, 300_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
  await new Promise((resolve) => model?.close(resolve))
}, 90_000)

const ask = (token: string, body: unknown): Promise<RawResponse> =>
  http(`${baseUrl}/llm/chat`, { method: "POST", headers: bearer(token), body })

const reply = (response: RawResponse) => {
  expect(response.status, response.text).toBe(200)
  return Schema.decodeUnknownSync(Contract.ChatReply)(response.json)
}

describe("POST /llm/chat", () => {
  it("answers with the model, which got the evaluation's figures and the question but no row", async () => {
    modelStatus = 200
    modelRequests.length = 0
    const answer = reply(await ask(owner, { message: "Which columns are the weakest?", evaluation_id: evaluationId }))
    expect(answer).toMatchObject({
      reply: modelReply,
      evaluation_id: evaluationId,
      source: "model",
      model: "local-test-model",
      cited_figures: ["overall_score", "weakest_column.1"],
      fallback_reason: null
    })
    expect(answer.suggested_questions.length).toBeGreaterThan(0)
    expect(modelRequests).toHaveLength(1)
    const sent = modelRequests[0]!
    expect(sent).toContain("overall_score")
    expect(sent).toContain("weakest_column.1")
    expect(sent).toContain("Which columns are the weakest?")
    for (const row of penguinRows()) expect(sent).not.toContain(row)
    // Category values of the data (species, islands) are not figures.
    for (const category of ["Adelie", "Gentoo", "Chinstrap", "Torgersen", "Biscoe", "Dream"]) expect(sent).not.toContain(category)
  })

  it("answers offline, citing the figures, when the model fails", async () => {
    modelStatus = 500
    const answer = reply(await ask(owner, { message: "How good is it overall?", evaluation_id: evaluationId }))
    expect(answer).toMatchObject({ source: "offline", model: null, evaluation_id: evaluationId })
    expect(answer.fallback_reason).toContain("HTTP 500")
    expect(answer.reply).toMatch(/The overall quality score is \d\.\d\d/)
    expect(answer.cited_figures).toContain("overall_score")
  })

  it("answers about a full run: 409 while it runs, then the privacy verdict and figures, promising nothing", async () => {
    modelStatus = 500
    const runId = acceptedRun(await requestEvaluationRun(baseUrl, owner, {
      generator_id: generatorId,
      dataset_id: datasetId,
      evaluation_sample_size: 300,
      ml_utility_config: { algorithms: ["random_forest"], cross_validation_folds: 2 },
      target_column: "species"
    }))
    const early = await ask(owner, { message: "Is it safe to share?", evaluation_id: runId })
    // The run may already have finished on a fast machine; while it runs the answer is 409.
    if (early.status !== 200) expect(expectProblem(early, 409, "not_completed").detail).toContain("still running")
    const record = await pollEvaluation(baseUrl, owner, runId)
    expect(record.status).toBe("completed")

    const privacy = reply(await ask(owner, { message: "Is it safe to share?", evaluation_id: runId }))
    expect(privacy.source).toBe("offline")
    // The answer leads with the checks' verdict, as the record states it, and names every failing check.
    const verdict = (record.results as { privacy: { verdict: { safe_to_share: boolean; failing: ReadonlyArray<string> } } }).privacy.verdict
    expect(record.safe_to_share).toBe(verdict.safe_to_share)
    if (verdict.safe_to_share) expect(privacy.reply.startsWith("By the privacy checks it is safe to share: ")).toBe(true)
    else {
      expect(privacy.reply.startsWith("No: it is not safe to share.")).toBe(true)
      for (const check of verdict.failing) expect(privacy.reply).toContain(check.replace(/_/g, " ").replace("quasi identifier", "quasi-identifier"))
    }
    expect(privacy.reply).toMatch(/\d+\.\d % of the synthetic rows \(\d+\) are exact copies of a real row/)
    expect(privacy.reply).toMatch(/DCR baseline protection is \d\.\d\d/)
    // The generator held rows out of training, so the attack runs without a holdout dataset.
    expect(privacy.reply).toMatch(/A membership-inference attack tells training rows from unseen rows with AUC \d\.\d\d \(95 % interval \d\.\d\d to \d\.\d\d\)/)
    expect(privacy.reply).toContain("The generator was not trained with differential privacy")
    expect(privacy.reply).toContain("cannot prove that the data is anonymous")
    expect(privacy.cited_figures).toEqual(expect.arrayContaining([
      "privacy.safe_to_share", "privacy.exact_copy_share", "privacy.dcr_baseline_protection", "privacy.mia_auc", "generator.differentially_private"
    ]))

    const utility = reply(await ask(owner, { message: "Can I train models on it?", evaluation_id: runId }))
    expect(utility.reply).toMatch(/Models predicting species, tested on real rows: random_forest reaches f1 \d\.\d\d/)
    expect(utility.cited_figures).toContain("ml_utility.random_forest.ratio")
  }, 200_000)

  it("answers 404 for another user's evaluation and for an unknown or malformed id", async () => {
    expectProblem(await ask(stranger, { message: "Is it safe to share?", evaluation_id: evaluationId }), 404, "not_found")
    expectProblem(await ask(owner, { message: "Is it safe to share?", evaluation_id: "00000000-0000-7000-8000-000000000000" }), 404, "not_found")
    expectProblem(await ask(owner, { message: "Is it safe to share?", evaluation_id: "not-a-uuid" }), 404, "not_found")
  })

  it("answers 422 for an empty or overlong message and a missing field, 400 for malformed JSON", async () => {
    const empty = expectProblem(await ask(owner, { message: "  ", evaluation_id: evaluationId }), 422, "validation_failed")
    expect((empty as { readonly errors?: ReadonlyArray<{ readonly field: string }> }).errors?.map(({ field }) => field)).toEqual(["message"])
    expectProblem(await ask(owner, { message: "x".repeat(2_001), evaluation_id: evaluationId }), 422, "validation_failed")
    expectProblem(await ask(owner, { evaluation_id: evaluationId }), 422, "validation_failed")
    const malformed = await http(`${baseUrl}/llm/chat`, {
      method: "POST",
      headers: { ...bearer(owner), "content-type": "application/json" },
      body: "{\"message\": "
    })
    expectProblem(malformed, 400, "malformed_request")
  })

  it("answers 401 without a token", async () => {
    const response = await http(`${baseUrl}/llm/chat`, { method: "POST", body: { message: "hi", evaluation_id: evaluationId } })
    expect(response.status).toBe(401)
  })
})
