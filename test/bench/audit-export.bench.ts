// The audit feed's export: BENCH_EVENTS user.logged-in events are appended to a fresh embedded log before the
// standalone runtime starts; it projects them (timed, with the other read models), then GET /events as NDJSON and
// `synth events export --output` read them all back, a few rounds each (the auditor's own two events come along).
//
// Knobs: BENCH_EVENTS (5000), BENCH_ROUNDS (3).
import type { EventEnvelope } from "@synth/contracts"
import { EventLog, layerEmbedded } from "@synth/eventlog"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSynth } from "../support/cli.ts"
import { goodPassword, http } from "../support/http.ts"
import { startServer } from "../support/server.ts"

const events = Number(process.env.BENCH_EVENTS ?? 5000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const perSecond = (count: number, ms: number) => Math.round((count * 1000) / ms)

const loggedIn = (n: number): EventEnvelope => {
  const userId = `00000000-0000-4000-8000-${String(n % 100).padStart(12, "0")}`
  return {
    eventId: randomUUID() as EventEnvelope["eventId"],
    type: "user.logged-in",
    version: 1,
    aggregateId: userId,
    occurredAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    actor: `user:${userId}`,
    correlationId: randomUUID(),
    causationId: null,
    payload: { userId, refreshTokenId: randomUUID(), familyId: randomUUID() }
  }
}

const dataDir = await mkdtemp(join(tmpdir(), "synth-bench-audit-"))
const auditor = "auditor-bench@example.com"
try {
  await Effect.runPromise(
    Effect.flatMap(EventLog, (log) =>
      Effect.forEach(
        Array.from({ length: Math.ceil(events / 500) }, (_, batch) => batch),
        (batch) => {
          const envelopes = Array.from({ length: Math.min(500, events - batch * 500) }, (_, index) => loggedIn(batch * 500 + index))
          const records = envelopes.map((envelope) => ({ topic: "synth.user", envelope }))
          return log.append([records[0]!, ...records.slice(1)])
        },
        { discard: true }
      )).pipe(Effect.provide(layerEmbedded({ dataDir: join(dataDir, "eventlog") })))
  )
  console.error(`appended ${events} events; starting the runtime`)
  const started = performance.now()
  const server = await startServer({
    runtime: "node",
    env: { DATA_DIR: dataDir, AUDITOR_EMAILS: auditor, AUTH_RATE_LIMIT_PER_MINUTE: "10000" },
    readyTimeoutMs: 300_000
  })
  try {
    await http(`${server.baseUrl}/auth/register`, { body: { email: auditor, password: goodPassword } })
    const login = await http(`${server.baseUrl}/auth/login`, { body: { email: auditor, password: goodPassword } })
    const token = (login.json as { readonly access_token: string }).access_token
    const headers = { authorization: `Bearer ${token}`, accept: "application/x-ndjson" }
    const count = async () => (await http(`${server.baseUrl}/events`, { headers, timeoutMs: 300_000 })).text.split("\n").length - 1
    while ((await count()) < events) await new Promise((resolve) => setTimeout(resolve, 500))
    const projectedMs = performance.now() - started
    console.log(JSON.stringify({ bench: "audit.project", events, ms: Math.round(projectedMs), note: "start to all projected" }))

    const httpMs: Array<number> = []
    let bytes = 0
    let served = 0
    for (let round = 0; round < rounds; round++) {
      const begun = performance.now()
      const response = await http(`${server.baseUrl}/events`, { headers, timeoutMs: 300_000 })
      httpMs.push(performance.now() - begun)
      bytes = Buffer.byteLength(response.text)
      served = response.text.split("\n").length - 1
    }
    const httpMedian = median(httpMs)
    console.log(JSON.stringify({ bench: "audit.export.http", events: served, bytes, ms: Math.round(httpMedian), eventsPerSecond: perSecond(served, httpMedian) }))

    const cliMs: Array<number> = []
    const file = join(dataDir, "export.ndjson")
    for (let round = 0; round < rounds; round++) {
      const result = await runSynth(["events", "export", "--url", server.baseUrl, "--token", token, "--output", file], { timeoutMs: 300_000 })
      if (result.code !== 0) throw new Error(result.output)
      cliMs.push(result.durationMs)
      console.error(result.stderr.trim())
    }
    const lines = (await readFile(file, "utf8")).split("\n").length - 1
    const cliMedian = median(cliMs)
    console.log(JSON.stringify({ bench: "audit.export.cli", events: lines, ms: Math.round(cliMedian), eventsPerSecond: perSecond(lines, cliMedian), note: "the whole synth process, start-up included (--token: no login)" }))
  } finally {
    await server.stop("SIGTERM", 60_000)
  }
} finally {
  await rm(dataDir, { recursive: true, force: true })
}
