// "Delete the read-model database, run `synth replay`, start again: /auth/me answers as before, logins work."
// One data directory through three lives of the runtime; the JWT secret is the one the runtime generated into it.
import { afterAll, beforeAll, describe, expect } from "@effect/vitest"
import { existsSync } from "node:fs"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSynth } from "../support/cli.ts"
import { upload, uploaded } from "../support/datasets.ts"
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
  /** GET path → raw body before the replay: a generator, its output and sample, and the lists. */
  const resourcesBefore = new Map<string, string>()

  step("before: three accounts, logins and one rotation; SIGTERM exits cleanly", async () => {
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

    // A dataset, a generator that completed, a sample drawn from it: what the generator read models hold.
    const owner = bearer(first.tokens.access_token)
    const datasetId = uploaded(await upload(running.baseUrl, first.tokens.access_token, "penguins.csv", realDataset("penguins"))).id
    const job = accepted(await requestGeneration(running.baseUrl, first.tokens.access_token, datasetId, { generator_type: "gaussian_copula", num_rows: 50, seed: 5 }))
    const done = (await pollGenerator(running.baseUrl, first.tokens.access_token, job.generator_id)).at(-1)!
    expect(done.status).toBe("completed")
    ok(await http(`${running.baseUrl}/generators/${job.generator_id}/sample`, { method: "POST", headers: owner, body: { num_rows: 20, seed: 1 } }), 202)
    await pollGenerator(running.baseUrl, first.tokens.access_token, job.generator_id, (record) => record.samples[0]?.status === "completed")
    for (const path of [`/generators/${job.generator_id}`, "/generators/", `/datasets/${done.output_dataset_id}`, "/datasets/"]) {
      const response = await http(`${running.baseUrl}${path}`, { headers: owner })
      ok(response)
      resourcesBefore.set(path, response.text)
    }

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
    expect(Number(summary![1])).toBeGreaterThanOrEqual(7)
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

    // Generators, their outputs and samples, and the lists answer exactly as before.
    expect(resourcesBefore.size).toBe(4)
    for (const [path, before] of resourcesBefore) {
      const after = await http(`${running.baseUrl}${path}`, { headers: bearer(accounts[0]!.tokens.access_token) })
      expect(after.status, after.text).toBe(200)
      expect(after.json, path).toStrictEqual(JSON.parse(before))
    }

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
})
