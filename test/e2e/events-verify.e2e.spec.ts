// Issue 10, tamper evidence: "The log of a full e2e run verifies; changing one byte of one stored event makes
// verify fail at that event." A full flow on the standalone runtime (accounts, an upload with its profile, a
// generator), the runtime stopped, `synth events verify` on its DATA_DIR; then one byte of one stored event changed
// through SQL, as someone with access to the files could.
import { PGlite } from "@electric-sql/pglite"
import { afterAll, beforeAll, describe, expect } from "@effect/vitest"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSynth } from "../support/cli.ts"
import { upload, uploaded } from "../support/datasets.ts"
import { accepted, pollGenerator, requestGeneration } from "../support/generators.ts"
import { bearer, goodPassword, http, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { storySteps } from "../support/steps.ts"
import { realDataset } from "../support/upload.ts"

const stepTimeoutMs = 240_000

let dataDir: string
let server: RunningServer | undefined
const email = uniqueEmail("verify")

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "synth-e2e-verify-"))
})

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
  await rm(dataDir, { recursive: true, force: true })
})

const verify = (args: ReadonlyArray<string> = []) =>
  runSynth(["events", "verify", ...args], { env: { DATA_DIR: dataDir }, unsetEnv: ["JWT_SECRET"], timeoutMs: 180_000 })

interface Report {
  readonly ok: boolean
  readonly unsealed: number
  readonly chains: ReadonlyArray<{
    readonly chain: string
    readonly events: number
    readonly problem: { readonly kind: string; readonly eventId: string | null; readonly offset: number } | null
  }>
}

describe("synth events verify", () => {
  const step = storySteps()
  let alteredEventId: string

  step("a full flow, then SIGTERM", async () => {
    server = await startServer({
      runtime: "node",
      env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_PER_MINUTE: "10000" },
      readyTimeoutMs: 150_000
    })
    const password = `${goodPassword} verify`
    expect((await http(`${server.baseUrl}/auth/register`, { body: { email, password } })).status).toBe(201)
    const login = await http(`${server.baseUrl}/auth/login`, { body: { email, password } })
    const token = (login.json as { readonly access_token: string }).access_token
    const datasetId = uploaded(await upload(server.baseUrl, token, "penguins.csv", realDataset("penguins"))).id
    const profile = await http(`${server.baseUrl}/datasets/${datasetId}/profile`, { method: "POST", headers: bearer(token), timeoutMs: 120_000 })
    expect([200, 202], profile.text.slice(0, 300)).toContain(profile.status)
    const job = accepted(await requestGeneration(server.baseUrl, token, datasetId, { generator_type: "gaussian_copula", num_rows: 50, seed: 5 }))
    expect((await pollGenerator(server.baseUrl, token, job.generator_id)).at(-1)?.status).toBe("completed")
    const running = server
    server = undefined
    await running.stop("SIGTERM", 60_000)
  }, stepTimeoutMs)

  step("the log of the run verifies: exit 0, every producer's chain intact", async () => {
    const result = await verify(["--json"])
    expect(result.code, result.output).toBe(0)
    const report = JSON.parse(result.stdout) as Report
    expect(report.ok).toBe(true)
    expect(report.unsealed).toBe(0)
    expect(report.chains.map((chain) => chain.chain)).toEqual(expect.arrayContaining(["gateway", "ingest", "profiling", "generation"]))
    for (const chain of report.chains) expect(chain.problem).toBeNull()
    const text = await verify()
    expect(text.code, text.output).toBe(0)
    expect(text.stdout).toContain("The event log verifies.")
  }, stepTimeoutMs)

  step("one byte of one stored event changed: exit 1, naming that event", async () => {
    const database = await PGlite.create({ dataDir: join(dataDir, "eventlog") })
    try {
      const target = await database.query<{ readonly event_id: string }>(
        `SELECT event_id::text AS event_id FROM events WHERE type = 'user.registered' LIMIT 1`
      )
      alteredEventId = target.rows[0]!.event_id
      const changed = await database.query(
        `UPDATE events SET envelope = replace(envelope::text, '"version":2', '"version":9')::json WHERE event_id = $1`,
        [alteredEventId]
      )
      expect(changed.affectedRows).toBe(1)
    } finally {
      await database.close()
    }
    const result = await verify(["--json"])
    expect(result.code, result.output).toBe(1)
    const report = JSON.parse(result.stdout) as Report
    expect(report.ok).toBe(false)
    const failing = report.chains.filter((chain) => chain.problem !== null)
    expect(failing.map((chain) => [chain.chain, chain.problem?.kind, chain.problem?.eventId])).toEqual([
      ["gateway", "altered", alteredEventId]
    ])
    const text = await verify()
    expect(text.code).toBe(1)
    expect(text.stdout).toContain(`ALTERED at synth.user/0@`)
    expect(text.stdout).toContain(`event ${alteredEventId}`)
    expect(text.output).not.toContain(email)
  }, stepTimeoutMs)
})
