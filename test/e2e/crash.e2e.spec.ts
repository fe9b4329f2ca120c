// "kill -9 during a burst of registrations: every registration that got a 2xx is still there after restart."
// Then the same after a clean SIGTERM. One data directory across three lives of the runtime.
import { afterAll, beforeAll, describe, expect } from "@effect/vitest"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bearer, goodPassword, http, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { storySteps } from "../support/steps.ts"

const burstSize = 60
const concurrency = 8
/** The server is killed as soon as this many registrations have answered 201. */
const killAfterAcknowledged = 20
/** Each step starts runtimes: generous, for a loaded two-core machine. */
const stepTimeoutMs = 300_000

let dataDir: string
let server: RunningServer | undefined

const start = async () => {
  server = await startServer({
    runtime: "node",
    env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_PER_MINUTE: "100000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
    readyTimeoutMs: 150_000
  })
  return server
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "synth-e2e-crash-"))
})

afterAll(async () => {
  await server?.stop("SIGKILL")
  await rm(dataDir, { recursive: true, force: true })
})

/** Runs `task` over `items` with at most `limit` at a time. */
const pool = async <A, B>(items: ReadonlyArray<A>, limit: number, task: (item: A) => Promise<B>): Promise<Array<B>> => {
  const results: Array<B> = []
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: limit }, worker))
  return results
}

type Outcome =
  | { readonly kind: "acknowledged" }
  /** 503: recorded, but not visible in the read models within READ_YOUR_WRITES_TIMEOUT (a loaded machine). */
  | { readonly kind: "unconfirmed" }
  | { readonly kind: "refused"; readonly status: number; readonly body: string }
  /** Sent, but the connection died before an answer: the server was killed while it was in flight. */
  | { readonly kind: "no answer" }
  | { readonly kind: "not sent" }

describe("durability of acknowledged registrations", () => {
  const step = storySteps()
  /** Every account the service acknowledged so far, with a password to log in. */
  const known = new Set<string>()

  step("kill -9 part-way through a burst: every 201 survives the restart", async () => {
    const running = await start()
    const emails = Array.from({ length: burstSize }, (_, index) => uniqueEmail(`crash-${index}`))
    const outcomes = new Map<string, Outcome>(emails.map((email) => [email, { kind: "not sent" }]))
    let acknowledged = 0
    let killed = false
    let inFlightAtKill: ReadonlyArray<string> = []
    const inFlight = new Set<string>()
    const burstStarted = performance.now()
    let killedAfterMs = 0

    await pool(emails, concurrency, async (email) => {
      if (killed) return
      inFlight.add(email)
      try {
        const response = await http(`${running.baseUrl}/auth/register`, { body: { email, password: goodPassword } })
        if (response.status === 201) {
          outcomes.set(email, { kind: "acknowledged" })
          acknowledged += 1
          if (acknowledged >= killAfterAcknowledged && !killed) {
            killed = true
            killedAfterMs = performance.now() - burstStarted
            inFlightAtKill = [...inFlight].filter((other) => other !== email)
            process.kill(running.pid, "SIGKILL")
          }
        } else if (response.status === 503) {
          outcomes.set(email, { kind: "unconfirmed" })
        } else {
          outcomes.set(email, { kind: "refused", status: response.status, body: response.text })
        }
      } catch {
        outcomes.set(email, { kind: "no answer" })
      } finally {
        inFlight.delete(email)
      }
    })
    const exit = await running.stop("SIGKILL")
    server = undefined
    expect(exit.signal).toBe("SIGKILL")

    const byKind = (kind: Outcome["kind"]) => emails.filter((email) => outcomes.get(email)?.kind === kind)
    const refused = [...outcomes.values()].filter((outcome) => outcome.kind === "refused")
    expect(refused, "no registration may fail for another reason than the kill").toEqual([])
    const acked = byKind("acknowledged")
    expect(acked.length).toBeGreaterThanOrEqual(killAfterAcknowledged)

    const restarted = await start()
    // Every acknowledged account logs in with its password (a 409 alone would not prove the hash survived).
    const logins = await pool(acked, 4, async (email) => {
      const response = await http(`${restarted.baseUrl}/auth/login`, { body: { email, password: goodPassword } })
      return { email, status: response.status, body: response.text }
    })
    expect(logins.filter((login) => login.status !== 200)).toEqual([])
    for (const email of acked) known.add(email)

    // The ones in flight at the kill may or may not have been recorded; a re-registration tells which (and a 201
    // then registers them, so they count as known either way).
    const unanswered = [...byKind("no answer"), ...byKind("unconfirmed")]
    const probes = await pool(unanswered, 4, async (email) => {
      const response = await http(`${restarted.baseUrl}/auth/register`, { body: { email, password: goodPassword } })
      expect([201, 409], response.text).toContain(response.status)
      known.add(email)
      return response.status
    })
    const kept = probes.filter((status) => status === 409).length
    console.info(
      `kill -9 burst: killed after ${Math.round(killedAfterMs)} ms (${killAfterAcknowledged} registrations answered 201, ` +
        `${((killAfterAcknowledged / killedAfterMs) * 1000).toFixed(1)}/s at concurrency ${concurrency}); ` +
        `${acked.length} acknowledged in all (all ${acked.length} there after restart), ` +
        `${inFlightAtKill.length} in flight at the kill, ${byKind("unconfirmed").length} answered 503; of the ` +
        `${unanswered.length} without a 201, ${kept} recorded and ` +
        `${unanswered.length - kept} not; ${byKind("not sent").length} never sent`
    )
  }, stepTimeoutMs)

  step("a clean SIGTERM keeps everything, and tokens issued before it still work", async () => {
    const running = server ?? (await start())
    const fresh = Array.from({ length: 8 }, (_, index) => uniqueEmail(`sigterm-${index}`))
    const statuses = await pool(fresh, 4, async (email) => {
      const response = await http(`${running.baseUrl}/auth/register`, { body: { email, password: goodPassword } })
      return response.status
    })
    expect(statuses).toEqual(fresh.map(() => 201))
    for (const email of fresh) known.add(email)
    const tokens = (await http(`${running.baseUrl}/auth/login`, { body: { email: fresh[0], password: goodPassword } }))
      .json as { readonly access_token: string }
    const meBefore = await http(`${running.baseUrl}/auth/me`, { headers: bearer(tokens.access_token) })
    expect(meBefore.status).toBe(200)

    const exit = await running.stop("SIGTERM", 60_000)
    server = undefined
    expect(exit, `output:\n${running.output}`).toEqual({ code: 0, signal: null })

    const restarted = await start()
    // Every account ever acknowledged is still registered (cheap check: a second registration is refused)...
    const again = await pool([...known], 8, async (email) => {
      const response = await http(`${restarted.baseUrl}/auth/register`, { body: { email, password: goodPassword } })
      return { email, status: response.status }
    })
    expect(again.filter((attempt) => attempt.status !== 409)).toEqual([])
    // ...the newest log in...
    const logins = await pool(fresh, 4, async (email) => {
      const response = await http(`${restarted.baseUrl}/auth/login`, { body: { email, password: goodPassword } })
      return response.status
    })
    expect(logins).toEqual(fresh.map(() => 200))
    // ...and an access token from before the restart answers the same.
    const meAfter = await http(`${restarted.baseUrl}/auth/me`, { headers: bearer(tokens.access_token) })
    expect(meAfter.status).toBe(200)
    expect(meAfter.json).toStrictEqual(meBefore.json)
    console.info(`SIGTERM restart: all ${known.size} accounts still registered`)

    const finalExit = await restarted.stop("SIGTERM", 60_000)
    server = undefined
    expect(finalExit, `output:\n${restarted.output}`).toEqual({ code: 0, signal: null })
  }, stepTimeoutMs)
})
