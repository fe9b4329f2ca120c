// A generation job whose process is killed (SIGKILL) mid-job is never left `running`: after a restart the watchdog
// starts it again as attempt 2 (GENERATION_STALL_TIMEOUT without a heartbeat), and when attempt 2 is lost too
// (GENERATION_MAX_ATTEMPTS 2) it fails with reason worker_lost. One data directory across three lives.
import { afterAll, beforeAll, describe, expect } from "@effect/vitest"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { upload, uploaded } from "../support/datasets.ts"
import { accepted, getGenerator, pollGenerator, requestGeneration } from "../support/generators.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { storySteps } from "../support/steps.ts"
import { createAccount, realDataset } from "../support/upload.ts"

const stepTimeoutMs = 300_000

let dataDir: string
let server: RunningServer | undefined
let token: string
let datasetId: string
let survivor: string
let twiceLost: string

const start = async () => {
  server = await startServer({
    runtime: "node",
    env: {
      DATA_DIR: dataDir,
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
      READ_YOUR_WRITES_TIMEOUT: "60 seconds",
      GENERATION_CONCURRENCY: "1",
      GENERATION_HEARTBEAT: "500 millis",
      GENERATION_STALL_TIMEOUT: "3 seconds",
      GENERATION_MAX_ATTEMPTS: "2"
    },
    readyTimeoutMs: 150_000
  })
  return server
}

/** A job big enough to be caught running: a few seconds of sampling and storing. */
const longJob = { generator_type: "gaussian_copula", num_rows: 3_000_000 }

const inWorker = (attempt: number) => (record: { readonly attempts: number; readonly phase: string | null }) =>
  record.attempts === attempt && (record.phase === "fitting" || record.phase === "sampling")

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "synth-e2e-generation-crash-"))
})

afterAll(async () => {
  await server?.stop("SIGKILL")
  await rm(dataDir, { recursive: true, force: true })
})

describe("a generation job whose process dies", () => {
  const step = storySteps()

  step("is killed while its worker trains", async () => {
    const { baseUrl } = await start()
    token = await createAccount(baseUrl, "generation-crash")
    datasetId = uploaded(await upload(baseUrl, token, "diamonds.csv", realDataset("diamonds"))).id
    survivor = accepted(await requestGeneration(baseUrl, token, datasetId, { ...longJob, seed: 11 })).generator_id
    await pollGenerator(baseUrl, token, survivor, inWorker(1))
    await server!.stop("SIGKILL")
  }, stepTimeoutMs)

  step("starts again as attempt 2 after the restart and completes", async () => {
    const { baseUrl } = await start()
    const records = await pollGenerator(baseUrl, token, survivor, undefined, 180_000)
    const final = records.at(-1)!
    expect(final).toMatchObject({ status: "completed", attempts: 2, progress: 100, error: null })
    expect(final.output_dataset_id).not.toBeNull()
  }, stepTimeoutMs)

  step("fails with worker_lost when attempt 2 is lost too", async () => {
    twiceLost = accepted(await requestGeneration(server!.baseUrl, token, datasetId, { ...longJob, seed: 12 })).generator_id
    await pollGenerator(server!.baseUrl, token, twiceLost, inWorker(1))
    await server!.stop("SIGKILL")
    const { baseUrl } = await start()
    await pollGenerator(baseUrl, token, twiceLost, inWorker(2), 180_000)
    await server!.stop("SIGKILL")
    const restarted = await start()
    const final = (await pollGenerator(restarted.baseUrl, token, twiceLost, undefined, 180_000)).at(-1)!
    expect(final).toMatchObject({ status: "failed", attempts: 2, output_dataset_id: null })
    expect(final.error).toMatchObject({ code: "training_failed", reason: "worker_lost" })
    expect(final.error!.message).toContain("lost 2 times")
    // The completed job of the earlier lives is untouched.
    expect((await getGenerator(restarted.baseUrl, token, survivor)).status).toBe("completed")
  }, stepTimeoutMs)
})
