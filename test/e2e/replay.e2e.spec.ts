// "Delete the read-model database, run `synth replay`, start again: /auth/me answers as before, logins work." And:
// replay into a fresh database gives identical bodies on every GET endpoint of every resource, lists and items, after
// a full flow (accounts, an upload with its profile and both PII scans, a generator and a sample, a quick
// evaluation and a run with its report). One data directory through three lives of the runtime; the JWT secret is
// the one the runtime generated into it.
import { afterAll, beforeAll, describe, expect } from "@effect/vitest"
import { existsSync } from "node:fs"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSynth } from "../support/cli.ts"
import { upload, uploaded } from "../support/datasets.ts"
import { acceptedRun, pollEvaluation, quickResult, requestEvaluationRun, requestQuickEvaluation } from "../support/evaluations.ts"
import { accepted, pollGenerator, requestGeneration } from "../support/generators.ts"
import { bearer, goodPassword, http, type RawResponse, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { storySteps } from "../support/steps.ts"
import { realDataset } from "../support/upload.ts"

/** Each step starts or stops a runtime or runs the CLI: generous, for a loaded two-core machine. */
const stepTimeoutMs = 240_000

interface TokenPair {
  readonly access_token: string
  readonly refresh_token: string
}

interface Account {
  readonly email: string
  readonly password: string
  readonly tokens: TokenPair
  /** The raw /auth/me body before the read models were deleted. */
  readonly me: string
}

let dataDir: string
let server: RunningServer | undefined

/** No JWT_SECRET: the runtime must generate one into DATA_DIR/secrets and find it again on every start. */
const start = async () => {
  server = await startServer({
    runtime: "node",
    env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_PER_MINUTE: "10000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
    unsetEnv: ["JWT_SECRET"],
    readyTimeoutMs: 150_000
  })
  return server
}

/** `synth replay` on the data dir, as a person would run it. */
const replay = () => runSynth(["replay"], { env: { DATA_DIR: dataDir }, unsetEnv: ["JWT_SECRET"], timeoutMs: 180_000 })

const stop = async () => {
  const running = server
  server = undefined
  return running?.stop("SIGTERM", 60_000)
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "synth-e2e-replay-"))
})

afterAll(async () => {
  await stop()
  await rm(dataDir, { recursive: true, force: true })
})

const ok = <A>(response: RawResponse, status = 200): A => {
  expect(response.status, response.text).toBe(status)
  return response.json as A
}

const expectInvalidToken = (response: RawResponse) => {
  expect(response.status, response.text).toBe(401)
  expect(response.header("content-type")).toMatch(/^application\/problem\+json\b/)
  expect((response.json as { readonly code: string }).code).toBe("invalid_token")
}

describe("synth replay rebuilds the read models from the event log", () => {
  const step = storySteps()
  const accounts: Array<Account> = []
  /** The first account's first refresh token (rotated, so used) and the one it was rotated into (unused). */
  let usedRefresh: string
  let unusedRefresh: string
  let secretBefore: string
  /** GET path → status, content type and raw body before the replay: every GET endpoint of every resource. */
  const resourcesBefore = new Map<string, { readonly status: number; readonly contentType: string | undefined; readonly body: string }>()
  /** A time in the middle of the flow (after the dataset's profile and scans, before the generator). */
  let midFlow: string
  /** Events the full replay applied. */
  let fullReplayEvents: number
  /** Every GET endpoint of every resource answers exactly as before: status, content type and body. */
  const expectResourcesAsBefore = async (baseUrl: string) => {
    expect(resourcesBefore.size).toBe(20)
    for (const [path, before] of resourcesBefore) {
      const after = await http(`${baseUrl}${path}`, { headers: bearer(accounts[0]!.tokens.access_token) })
      expect({ status: after.status, contentType: after.header("content-type") }, path).toStrictEqual({ status: before.status, contentType: before.contentType })
      if (before.contentType?.startsWith("application/problem+json") === true) {
        // A problem names the request it answers: the one per-request member, present in both, left out.
        const { request_id: requestBefore, ...problemBefore } = JSON.parse(before.body) as Record<string, unknown>
        const { request_id: requestAfter, ...problemAfter } = after.json as Record<string, unknown>
        expect([typeof requestBefore, typeof requestAfter], path).toStrictEqual(["string", "string"])
        expect(problemAfter, path).toStrictEqual(problemBefore)
      } else {
        expect(after.text, path).toBe(before.body)
      }
    }
  }

  step("before: three accounts, logins, one rotation and the full flow, every GET recorded; SIGTERM exits cleanly", async () => {
    const running = await start()
    for (const label of ["replay-a", "replay-b", "replay-c"]) {
      const email = uniqueEmail(label)
      const password = `${goodPassword} ${label}`
      ok(await http(`${running.baseUrl}/auth/register`, { body: { email, password } }), 201)
      const tokens = ok<TokenPair>(await http(`${running.baseUrl}/auth/login`, { body: { email, password } }))
      const me = await http(`${running.baseUrl}/auth/me`, { headers: bearer(tokens.access_token) })
      expect(me.status).toBe(200)
      accounts.push({ email, password, tokens, me: me.text })
    }
    const first = accounts[0]!
    usedRefresh = first.tokens.refresh_token
    unusedRefresh = ok<TokenPair>(
      await http(`${running.baseUrl}/auth/refresh`, { method: "POST", headers: bearer(usedRefresh) })
    ).refresh_token

    // The full flow: an upload with its profile and both PII scans, a generator that completed and a sample drawn
    // from it, a quick evaluation and an evaluation run with its report.
    const owner = bearer(first.tokens.access_token)
    const datasetId = uploaded(await upload(running.baseUrl, first.tokens.access_token, "penguins.csv", realDataset("penguins"))).id
    const profile = await http(`${running.baseUrl}/datasets/${datasetId}/profile`, { method: "POST", headers: owner, timeoutMs: 120_000 })
    expect([200, 202], profile.text.slice(0, 300)).toContain(profile.status)
    for (const scan of ["pii-detection", "pii-detection-enhanced"]) {
      const scanned = await http(`${running.baseUrl}/datasets/${datasetId}/${scan}`, { method: "POST", headers: owner, timeoutMs: 120_000 })
      expect([200, 202], scanned.text.slice(0, 300)).toContain(scanned.status)
    }
    midFlow = new Date().toISOString()
    const job = accepted(await requestGeneration(running.baseUrl, first.tokens.access_token, datasetId, { generator_type: "gaussian_copula", num_rows: 50, seed: 5 }))
    const done = (await pollGenerator(running.baseUrl, first.tokens.access_token, job.generator_id)).at(-1)!
    expect(done.status).toBe("completed")
    ok(await http(`${running.baseUrl}/generators/${job.generator_id}/sample`, { method: "POST", headers: owner, body: { num_rows: 20, seed: 1 } }), 202)
    const sampled = (await pollGenerator(running.baseUrl, first.tokens.access_token, job.generator_id, (record) => record.samples[0]?.status === "completed")).at(-1)!
    const sampleDatasetId = sampled.samples[0]!.output_dataset_id
    const quick = quickResult(await requestQuickEvaluation(running.baseUrl, first.tokens.access_token, job.generator_id)).evaluation_id
    const run = acceptedRun(await requestEvaluationRun(running.baseUrl, first.tokens.access_token, {
      generator_id: job.generator_id,
      dataset_id: datasetId,
      evaluation_sample_size: 300,
      ml_utility_config: { algorithms: ["random_forest"], test_size: 0.25, cross_validation_folds: 3, random_state: 1 }
    }))
    expect((await pollEvaluation(running.baseUrl, first.tokens.access_token, run)).status).toBe("completed")
    // Outcomes of the profile and the scans are projected by now (the evaluation ran after them); wait for them anyway.
    for (const path of [`/datasets/${datasetId}/profile`, `/datasets/${datasetId}/pii-flags`]) {
      const deadline = Date.now() + 120_000
      while ((await http(`${running.baseUrl}${path}`, { headers: owner })).status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }

    const datasetPaths = (id: string) => [`/datasets/${id}`, `/datasets/${id}/download`, `/datasets/${id}/profile`, `/datasets/${id}/pii-flags`]
    const paths = [
      "/auth/me",
      "/datasets/",
      ...datasetPaths(datasetId),
      ...datasetPaths(done.output_dataset_id!),
      ...datasetPaths(sampleDatasetId),
      "/generators/",
      `/generators/${job.generator_id}`,
      `/evaluations/${quick}`,
      `/evaluations/${quick}/report`,
      `/evaluations/${run}`,
      `/evaluations/${run}/report`
    ]
    for (const path of paths) {
      const response = await http(`${running.baseUrl}${path}`, { headers: owner })
      resourcesBefore.set(path, { status: response.status, contentType: response.header("content-type"), body: response.text })
    }
    // What each answers before the replay: the uploaded dataset's profile and scans, the run's report; an output
    // never profiled answers its 404 or 409 both times, which the comparison covers as well.
    for (const path of [...datasetPaths(datasetId), "/datasets/", "/generators/", `/generators/${job.generator_id}`, `/evaluations/${run}/report`]) {
      expect(resourcesBefore.get(path)!.status, `${path}: ${resourcesBefore.get(path)!.body.slice(0, 300)}`).toBe(200)
    }
    expect(JSON.parse(resourcesBefore.get("/datasets/")!.body)).toHaveLength(3)

    secretBefore = await readFile(join(dataDir, "secrets", "jwt-secret"), "utf8")
    expect(Buffer.byteLength(secretBefore.trim())).toBeGreaterThanOrEqual(32)

    const exit = await stop()
    expect(exit, `output:\n${running.output}`).toEqual({ code: 0, signal: null })
  }, stepTimeoutMs)

  step("replay: the read models are deleted, `synth replay` rebuilds them and prints a summary", async () => {
    expect(existsSync(join(dataDir, "readmodels"))).toBe(true)
    await rm(join(dataDir, "readmodels"), { recursive: true, force: true })

    const result = await replay()
    expect(result.code, result.output).toBe(0)
    // 3 registrations, 3 logins, 1 rotation at least (the log may hold more kinds of events as the service grows).
    const summary = /Replayed (\d+) events? in [\d.]+ ?s/.exec(result.output)
    expect(summary, result.output).not.toBeNull()
    fullReplayEvents = Number(summary![1])
    expect(fullReplayEvents).toBeGreaterThanOrEqual(7)
    expect(result.output).toMatch(/users: \d+ events?/)
    expect(existsSync(join(dataDir, "readmodels"))).toBe(true)
  }, stepTimeoutMs)

  step("after: old access tokens see identical /auth/me, logins work, the used refresh token stays refused", async () => {
    const running = await start()
    expect(await readFile(join(dataDir, "secrets", "jwt-secret"), "utf8")).toBe(secretBefore)

    for (const account of accounts) {
      const me = await http(`${running.baseUrl}/auth/me`, { headers: bearer(account.tokens.access_token) })
      expect(me.status, me.text).toBe(200)
      expect(me.json).toStrictEqual(JSON.parse(account.me))
      const login = await http(`${running.baseUrl}/auth/login`, { body: { email: account.email, password: account.password } })
      const tokens = ok<TokenPair>(login)
      const again = await http(`${running.baseUrl}/auth/me`, { headers: bearer(tokens.access_token) })
      expect(again.json).toStrictEqual(JSON.parse(account.me))
    }

    await expectResourcesAsBefore(running.baseUrl)

    // The unused refresh tokens rotate (checked before the reuse below, which revokes the first account's family).
    ok<TokenPair>(await http(`${running.baseUrl}/auth/refresh`, { method: "POST", headers: bearer(unusedRefresh) }))
    ok<TokenPair>(
      await http(`${running.baseUrl}/auth/refresh`, { method: "POST", headers: bearer(accounts[1]!.tokens.refresh_token) })
    )
    expectInvalidToken(await http(`${running.baseUrl}/auth/refresh`, { method: "POST", headers: bearer(usedRefresh) }))

    // Registration still sees every account: the same email, in capitals, is taken.
    const duplicate = await http(`${running.baseUrl}/auth/register`, {
      body: { email: accounts[2]!.email.toUpperCase(), password: goodPassword }
    })
    expect(duplicate.status).toBe(409)
  }, stepTimeoutMs)

  step("`synth replay` refuses while a server holds the data directory, and the server keeps working", async () => {
    const running = server ?? (await start())
    const result = await replay()
    expect(result.code, result.output).not.toBe(0)
    expect(result.code).not.toBeNull()
    expect(result.output).toMatch(/in use/i)
    expect(result.output).toContain(dataDir)
    expect(result.output).not.toMatch(/Replayed \d+ events/)

    const health = await http(`${running.baseUrl}/health`)
    expect(health.status).toBe(200)
    const me = await http(`${running.baseUrl}/auth/me`, { headers: bearer(accounts[2]!.tokens.access_token) })
    expect(me.status).toBe(200)
    expect(me.json).toStrictEqual(JSON.parse(accounts[2]!.me))
    const login = await http(`${running.baseUrl}/auth/login`, {
      body: { email: accounts[2]!.email, password: accounts[2]!.password }
    })
    expect(login.status).toBe(200)

    const exit = await stop()
    expect(exit, `output:\n${running.output}`).toEqual({ code: 0, signal: null })
  }, stepTimeoutMs)

  step("`synth replay --from TIME` keeps the rows, re-applies only the events from TIME on, and changes no answer", async () => {
    const invalid = await runSynth(["replay", "--from", "yesterday"], { env: { DATA_DIR: dataDir }, unsetEnv: ["JWT_SECRET"], timeoutMs: 60_000 })
    expect(invalid.code, invalid.output).toBe(2)
    expect(invalid.output).toContain("--from takes an ISO 8601 time")

    const result = await runSynth(["replay", "--from", midFlow], { env: { DATA_DIR: dataDir }, unsetEnv: ["JWT_SECRET"], timeoutMs: 180_000 })
    expect(result.code, result.output).toBe(0)
    expect(result.output).toContain("keeping the rows before")
    expect(result.output).not.toContain("Deleted the read-model database")
    const summary = /Replayed (\d+) events? in [\d.]+ ?s/.exec(result.output)
    expect(summary, result.output).not.toBeNull()
    // The generator's, the sample's and the evaluations' events and the later logins (with their audit rows), not the upload's.
    expect(Number(summary![1])).toBeGreaterThan(0)
    expect(Number(summary![1])).toBeLessThan(fullReplayEvents)
    expect(result.output).toMatch(/generators: [1-9]\d* events?/)

    const running = await start()
    await expectResourcesAsBefore(running.baseUrl)
    const exit = await stop()
    expect(exit, `output:\n${running.output}`).toEqual({ code: 0, signal: null })
  }, stepTimeoutMs)
})
