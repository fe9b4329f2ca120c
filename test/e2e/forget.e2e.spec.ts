// Issue 24, item 9: the right to be forgotten in an append-only log. A user registers, uploads, generates
// (gaussian_copula) and evaluates; DELETE /auth/me with the password forgets them. Their datasets, generator and
// evaluation are deleted (rows and blobs), their tokens stop working, the email registers again as a new user; the
// runtime stopped, `synth events verify` still verifies every chain, `synth replay` rebuilds the read models without
// them, and the email, as given and in lower case, is in no file of the data directory (event log, read models,
// blobs) and in no line the server printed. A second user, who is not forgotten, keeps everything.
import { afterAll, beforeAll, describe, expect } from "@effect/vitest"
import { existsSync } from "node:fs"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSynth } from "../support/cli.ts"
import { expectProblem, upload, uploaded } from "../support/datasets.ts"
import { quickResult, requestQuickEvaluation } from "../support/evaluations.ts"
import { accepted, pollGenerator, requestGeneration } from "../support/generators.ts"
import { bearer, goodPassword, http, type RawResponse, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { storySteps } from "../support/steps.ts"
import { realDataset } from "../support/upload.ts"

/** Each step starts or stops a runtime, trains a model or runs the CLI: generous, for a loaded two-core machine. */
const stepTimeoutMs = 240_000

const marker = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
/** Mixed case, as a person may type it; the service keeps it normalised to lower case. */
const email = `Forget.Me-${marker}@Example.COM`
const password = `${goodPassword} forget`
/** A string the log keeps on purpose (the client's filename is metadata of `dataset.uploaded`): the search's control. */
const filename = `forget-control-${marker}.csv`
const auditorEmail = uniqueEmail("forget-auditor")

let dataDir: string
let server: RunningServer | undefined
/** Everything every life of the runtime printed. */
let printed = ""

const start = async () => {
  server = await startServer({
    runtime: "node",
    env: {
      DATA_DIR: dataDir,
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      READ_YOUR_WRITES_TIMEOUT: "60 seconds",
      AUDITOR_EMAILS: auditorEmail
    },
    unsetEnv: ["JWT_SECRET"],
    readyTimeoutMs: 150_000
  })
  return server
}

const stop = async () => {
  const running = server
  server = undefined
  if (running === undefined) return
  const exit = await running.stop("SIGTERM", 60_000)
  printed += running.output
  return exit
}

const synth = (args: ReadonlyArray<string>) =>
  runSynth(args, { env: { DATA_DIR: dataDir }, unsetEnv: ["JWT_SECRET"], timeoutMs: 180_000 })

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "synth-e2e-forget-"))
})

afterAll(async () => {
  await stop()
  await rm(dataDir, { recursive: true, force: true })
})

const ok = <A>(response: RawResponse, status = 200): A => {
  expect(response.status, response.text).toBe(status)
  return response.json as A
}

interface TokenPair {
  readonly access_token: string
  readonly refresh_token: string
}

const logIn = async (baseUrl: string, who: string, secret: string) =>
  ok<TokenPair>(await http(`${baseUrl}/auth/login`, { body: { email: who, password: secret } }))

const filesUnder = async (directory: string): Promise<Array<string>> => {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

/** The files of the data directory that hold `text` as bytes (UTF-8), with the directory left off their paths. */
const filesHolding = async (text: string) => {
  const needle = Buffer.from(text, "utf8")
  const holding: Array<string> = []
  for (const file of await filesUnder(dataDir)) {
    if ((await readFile(file)).includes(needle)) holding.push(file.slice(dataDir.length))
  }
  return holding
}

/** The email, as given and in lower case, is in no file of the data directory and nowhere in what was printed. */
const expectEmailNowhere = async () => {
  for (const form of [email, email.toLowerCase()]) {
    expect(await filesHolding(form), `files holding ${form}`).toEqual([])
    expect(printed.includes(form), `the server's output holds ${form}`).toBe(false)
  }
  // The search reads the database files as they are: the filename the log keeps is found in them.
  expect((await filesHolding(filename)).some((file) => file.startsWith("/eventlog")), "the control string in the event log").toBe(true)
}

interface Event {
  readonly type: string
  readonly version: number
  readonly aggregate_id: string
  readonly actor: string
  readonly correlation_id: string
  readonly payload: Record<string, unknown>
}

describe("DELETE /auth/me forgets a user", () => {
  const step = storySteps()
  let userId: string
  let tokens: TokenPair
  let datasetId: string
  let generatorId: string
  let outputDatasetId: string
  let evaluationId: string
  let auditorTokens: TokenPair
  let auditorDatasetId: string
  let againId: string

  const blobDirectory = (...segments: ReadonlyArray<string>) => join(dataDir, "blobs", ...segments)

  step("a user registers, uploads, generates (gaussian_copula) and evaluates; another user uploads", async () => {
    const running = await start()
    const registered = ok<{ readonly id: string; readonly email: string }>(
      await http(`${running.baseUrl}/auth/register`, { body: { email, password } }),
      201
    )
    expect(registered.email).toBe(email.toLowerCase())
    userId = registered.id
    tokens = await logIn(running.baseUrl, email, password)
    datasetId = uploaded(await upload(running.baseUrl, tokens.access_token, filename, realDataset("penguins"))).id
    const job = accepted(
      await requestGeneration(running.baseUrl, tokens.access_token, datasetId, { generator_type: "gaussian_copula", num_rows: 50, seed: 24 })
    )
    generatorId = job.generator_id
    const final = (await pollGenerator(running.baseUrl, tokens.access_token, generatorId)).at(-1)!
    expect(final.status, JSON.stringify(final)).toBe("completed")
    outputDatasetId = final.output_dataset_id!
    evaluationId = quickResult(await requestQuickEvaluation(running.baseUrl, tokens.access_token, generatorId)).evaluation_id

    expect(ok<{ readonly email: string }>(await http(`${running.baseUrl}/auth/me`, { headers: bearer(tokens.access_token) })).email)
      .toBe(email.toLowerCase())
    for (const blobs of [["datasets", datasetId], ["datasets", outputDatasetId], ["generators", generatorId], ["evaluations", evaluationId]]) {
      expect(existsSync(blobDirectory(...blobs)), blobs.join("/")).toBe(true)
    }
    expect(existsSync(blobDirectory("keys", "users", userId)), "the user's key").toBe(true)

    ok(await http(`${running.baseUrl}/auth/register`, { body: { email: auditorEmail, password: goodPassword } }), 201)
    auditorTokens = await logIn(running.baseUrl, auditorEmail, goodPassword)
    auditorDatasetId = uploaded(await upload(running.baseUrl, auditorTokens.access_token, "kept.csv", realDataset("penguins"))).id
  }, stepTimeoutMs)

  step("without the password, or with a wrong one, nothing is deleted (4xx in the problem shape)", async () => {
    const baseUrl = server!.baseUrl
    const forget = (body: unknown) => http(`${baseUrl}/auth/me`, { method: "DELETE", headers: bearer(tokens.access_token), body })
    expect(expectProblem(await forget({}), 422, "validation_failed").detail).toContain("password")
    const noBody = await http(`${baseUrl}/auth/me`, { method: "DELETE", headers: bearer(tokens.access_token) })
    expectProblem(noBody, [400, 422], noBody.status === 400 ? "malformed_request" : "validation_failed")
    expect(expectProblem(await forget({ password: `${password} not` }), 403, "forbidden").detail).toContain("nothing was deleted")
    expectProblem(await http(`${baseUrl}/auth/me`, { method: "DELETE", body: { password } }), 401, "invalid_token")
    ok(await http(`${baseUrl}/datasets/${datasetId}`, { headers: bearer(tokens.access_token) }))
    ok(await http(`${baseUrl}/generators/${generatorId}`, { headers: bearer(tokens.access_token) }))
    ok(await http(`${baseUrl}/auth/me`, { headers: bearer(tokens.access_token) }))
  }, stepTimeoutMs)

  step("with the password: 204, then everything of the user is gone and their tokens are refused", async () => {
    const baseUrl = server!.baseUrl
    const forgotten = await http(`${baseUrl}/auth/me`, { method: "DELETE", headers: bearer(tokens.access_token), body: { password } })
    expect(forgotten.status, forgotten.text).toBe(204)
    expect(forgotten.text).toBe("")

    expectProblem(await http(`${baseUrl}/auth/me`, { headers: bearer(tokens.access_token) }), 401, "invalid_token")
    expectProblem(await http(`${baseUrl}/datasets/`, { headers: bearer(tokens.access_token) }), 401, "invalid_token")
    expectProblem(await http(`${baseUrl}/auth/refresh`, { method: "POST", headers: bearer(tokens.refresh_token) }), 401, "invalid_token")
    expectProblem(await http(`${baseUrl}/auth/login`, { body: { email, password } }), 401, "invalid_credentials")
    for (const blobs of [["datasets", datasetId], ["datasets", outputDatasetId], ["generators", generatorId], ["evaluations", evaluationId], ["keys", "users", userId]]) {
      expect(existsSync(blobDirectory(...blobs)), blobs.join("/")).toBe(false)
    }

    // The other user keeps everything.
    ok(await http(`${baseUrl}/datasets/${auditorDatasetId}`, { headers: bearer(auditorTokens.access_token) }))
    expect(existsSync(blobDirectory("keys", "users"))).toBe(true)
  }, stepTimeoutMs)

  step("the audit feed shows the deletions and the forgetting, of one request by the user, and no email", async () => {
    const baseUrl = server!.baseUrl
    const feed = ok<ReadonlyArray<Event>>(
      await http(`${baseUrl}/events?actor=user:${userId}&limit=500`, { headers: bearer(auditorTokens.access_token) })
    )
    const forgotten = feed.find((event) => event.type === "user.forgotten")!
    expect(forgotten).toMatchObject({ aggregate_id: userId, payload: { userId } })
    const sameRequest = feed.filter((event) => event.correlation_id === forgotten.correlation_id)
    expect(sameRequest.map((event) => [event.type, event.aggregate_id]).sort()).toEqual(
      [
        ["dataset.deleted", datasetId],
        ["dataset.deleted", outputDatasetId],
        ["evaluation.deleted", evaluationId],
        ["generator.deleted", generatorId],
        ["user.forgotten", userId]
      ].sort()
    )
    // Registering is decided before there is a user to act: its actor is anonymous; its aggregate is the user.
    const account = ok<ReadonlyArray<Event>>(
      await http(`${baseUrl}/events?aggregate_id=${userId}&limit=500`, { headers: bearer(auditorTokens.access_token) })
    )
    expect(account.map((event) => event.type)).toEqual(["user.registered", "user.logged-in", "user.forgotten"])
    const registration = account[0]!
    expect(registration.version).toBe(2)
    expect(registration.payload["email"]).toMatchObject({ alg: "A256GCM", keyId: userId })
    expect(registration.payload["passwordHash"]).toBe("[redacted]")
    const text = JSON.stringify([...feed, ...account])
    expect(text).not.toContain(email)
    expect(text).not.toContain(email.toLowerCase())
  }, stepTimeoutMs)

  step("the email registers again, as a new user who owns nothing", async () => {
    const baseUrl = server!.baseUrl
    const again = ok<{ readonly id: string }>(await http(`${baseUrl}/auth/register`, { body: { email, password: goodPassword } }), 201)
    expect(again.id).not.toBe(userId)
    againId = again.id
    const fresh = await logIn(baseUrl, email.toLowerCase(), goodPassword)
    expect(ok<{ readonly id: string }>(await http(`${baseUrl}/auth/me`, { headers: bearer(fresh.access_token) })).id).toBe(againId)
    expect(ok<ReadonlyArray<unknown>>(await http(`${baseUrl}/datasets/`, { headers: bearer(fresh.access_token) }))).toEqual([])
    expectProblem(await http(`${baseUrl}/datasets/${datasetId}`, { headers: bearer(fresh.access_token) }), 404, "not_found")
    expectProblem(await http(`${baseUrl}/auth/me`, { headers: bearer(tokens.access_token) }), 401, "invalid_token")
    expect((await stop())?.code).toBe(0)
  }, stepTimeoutMs)

  step("`synth events verify`: every chain still verifies", async () => {
    const result = await synth(["events", "verify", "--json"])
    expect(result.code, result.output).toBe(0)
    const report = JSON.parse(result.stdout) as {
      readonly ok: boolean
      readonly unsealed: number
      readonly chains: ReadonlyArray<{ readonly chain: string; readonly problem: unknown }>
    }
    expect(report.ok).toBe(true)
    expect(report.unsealed).toBe(0)
    expect(report.chains.map((chain) => chain.chain)).toEqual(expect.arrayContaining(["gateway", "ingest", "generation", "evaluation"]))
    for (const chain of report.chains) expect(chain.problem, chain.chain).toBeNull()
    printed += result.output
  }, stepTimeoutMs)

  step("the email is in no file of the data directory and in nothing the server printed", async () => {
    await expectEmailNowhere()
  }, stepTimeoutMs)

  step("`synth replay` rebuilds the read models: the forgotten user stays forgotten, the others are as before", async () => {
    const replayed = await synth(["replay"])
    expect(replayed.code, replayed.output).toBe(0)
    expect(replayed.stdout).toMatch(/Replayed \d+ events/)
    printed += replayed.output

    const running = await start()
    const fresh = await logIn(running.baseUrl, email, goodPassword)
    expect(ok<{ readonly id: string; readonly email: string }>(await http(`${running.baseUrl}/auth/me`, { headers: bearer(fresh.access_token) })))
      .toMatchObject({ id: againId, email: email.toLowerCase() })
    expect(ok<ReadonlyArray<unknown>>(await http(`${running.baseUrl}/datasets/`, { headers: bearer(fresh.access_token) }))).toEqual([])
    expectProblem(await http(`${running.baseUrl}/auth/me`, { headers: bearer(tokens.access_token) }), 401, "invalid_token")
    expectProblem(await http(`${running.baseUrl}/auth/login`, { body: { email, password } }), 401, "invalid_credentials")
    const auditor = await logIn(running.baseUrl, auditorEmail, goodPassword)
    const kept = ok<ReadonlyArray<{ readonly id: string }>>(await http(`${running.baseUrl}/datasets/`, { headers: bearer(auditor.access_token) }))
    expect(kept.map((dataset) => dataset.id)).toEqual([auditorDatasetId])
    expect((await stop())?.code).toBe(0)
    await expectEmailNowhere()
  }, stepTimeoutMs)
})
