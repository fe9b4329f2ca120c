// The distributed runtime as separate processes on real Kafka, PostgreSQL and MinIO (KAFKA_BROKERS, DATABASE_URL and
// S3_ENDPOINT come from the infra global setup): two gateway replicas over one event log and one read-model
// database. The auth flow alternates between them; then replicas are killed with SIGKILL while a client keeps
// registering, restarted, and the read models are compared with the log: nothing lost, nothing applied twice.
// When the ingest service exists (services/ingest/src/main.ts), one ingest process runs beside them and a dataset
// uploaded through one replica is read, downloaded and deleted through the other; a profiling and a privacy process
// answer profile and sensitive-data scan requests made through either replica; two generation processes share the
// generator topic's partitions, and when the one running a job is killed the other's watchdog starts it again; an
// evaluation process answers quick evaluations and runs requested through either replica.
// Every process runs its service compiled, as the distributed runtime and the image run it (deploy/build.ts, built
// here first), so jobs also prove that the compiled worker-thread entries load.
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Topics } from "@synth/contracts"
import { EventLog, layerFromConfig as EventLogFromConfig } from "@synth/eventlog"
import { layerPostgres } from "@synth/sql"
import { ConfigProvider, Effect, Layer, ManagedRuntime, Redacted, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { download, getDataset, upload } from "../support/datasets.ts"
import { bearer, goodPassword, http, type RawResponse, uniqueEmail } from "../support/http.ts"
import { freePort, repoRoot, type RunningServer, startServer } from "../support/server.ts"
import { acceptedRun, pollEvaluation, quickResult, requestEvaluationRun, requestQuickEvaluation } from "../support/evaluations.ts"
import { accepted, generateAndWait, pollGenerator, requestGeneration } from "../support/generators.ts"
import { createAccount, realDataset } from "../support/upload.ts"
import { type RunningWorker, startWorker } from "../support/worker.ts"
// eslint-disable-next-line @nx/enforce-module-boundaries -- the services run as deploy/ compiles them
import { buildServices } from "../../deploy/build.ts"
// eslint-disable-next-line @nx/enforce-module-boundaries -- the services run as deploy/ compiles them
import { compiledEntryOf, services } from "../../deploy/services.ts"

const required = ["KAFKA_BROKERS", "DATABASE_URL", "S3_ENDPOINT"] as const
const missing = required.filter((name) => (process.env[name] ?? "") === "")
if (missing.length > 0) {
  // The infra global setup provides them (starting local servers when they are not given): missing means it failed.
  throw new Error(`the distributed e2e tests need ${missing.join(", ")} (provided by the infra global setup)`)
}

const compiledEntry = (name: string) => compiledEntryOf(services.find((service) => service.name === name)!)
const entry = compiledEntry("gateway")
const ingestEntry = compiledEntry("ingest")
const hasIngest = existsSync(join(repoRoot, "services/ingest/src/main.ts"))
/** Workers that react to dataset requests: they run beside the ingest process. */
const analysisEntries = [compiledEntry("profiling"), compiledEntry("privacy")]
const generationEntry = compiledEntry("generation")
const evaluationEntry = compiledEntry("evaluation")
/** Two members of the generation group, one job at a time each; a silent job is taken over after 3 s. */
const generationInstances = ["generation-1", "generation-2"] as const
const generationEnv = {
  GENERATION_CONCURRENCY: "1",
  GENERATION_HEARTBEAT: "500 millis",
  GENERATION_STALL_TIMEOUT: "3 seconds"
}
const runId = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`
const jwtSecret = randomBytes(32).toString("base64url")
const userTopic = Topics.user.name
const auditorEmail = `auditor-${runId}@example.com`

/** A database of this run's own on the given server, so its read models start empty and its counts are its own. */
const databaseUrlFor = (name: string) => {
  const url = new URL(process.env.DATABASE_URL!)
  url.pathname = `/${name}`
  return url.toString()
}
const databaseName = `synth_e2e_${runId}`
const databaseUrl = databaseUrlFor(databaseName)

/** What every replica gets; the test's own clients of the log and the database read the same settings. */
const runtimeEnv: Record<string, string> = {
  KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
  KAFKA_TOPIC_PREFIX: `e2e-${runId}.`,
  DATABASE_URL: databaseUrl,
  S3_ENDPOINT: process.env.S3_ENDPOINT!,
  JWT_SECRET: jwtSecret,
  AUTH_RATE_LIMIT_PER_MINUTE: "100000",
  RATE_LIMIT_PER_MINUTE: "100000",
  AUDITOR_EMAILS: auditorEmail
}

const adminDatabase = ManagedRuntime.make(layerPostgres(Redacted.make(process.env.DATABASE_URL!)))
const createDatabase = (name: string) =>
  adminDatabase.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE "${name}"`)))
const dropDatabase = (name: string) =>
  adminDatabase
    .runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)))
    .catch(() => undefined)
const observer = ManagedRuntime.make(
  Layer.mergeAll(EventLogFromConfig, layerPostgres(Redacted.make(databaseUrl))).pipe(
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: runtimeEnv })))
  )
)

interface Replica {
  readonly name: "A" | "B"
  readonly port: string
  server: RunningServer | undefined
}

const replicas: Record<"A" | "B", Replica> = {
  A: { name: "A", port: "", server: undefined },
  B: { name: "B", port: "", server: undefined }
}

const start = async (replica: Replica) => {
  replica.server = await startServer({
    runtime: "node",
    entry,
    env: { ...runtimeEnv, PORT: replica.port },
    readyTimeoutMs: 90_000
  })
  return replica.server
}

const urlOf = (replica: Replica) => `http://127.0.0.1:${replica.port}`

let ingest: RunningWorker | undefined
let analysisWorkers: ReadonlyArray<RunningWorker> = []
let evaluationWorker: RunningWorker | undefined
const generationWorkers = new Map<string, RunningWorker>()

beforeAll(async () => {
  // Compiling takes seconds on a quiet machine, minutes on a loaded one (the hook allows for it).
  await buildServices()
  await createDatabase(databaseName)
  Object.assign(replicas.A, { port: String(await freePort()) })
  Object.assign(replicas.B, { port: String(await freePort()) })
  // Both at once: they race to migrate the one database, as replicas of a Deployment do.
  // One after the other: the first creates the topics and tables (the race of simultaneous starts has its own test).
  await start(replicas.A)
  await start(replicas.B)
  if (hasIngest) {
    ingest = await startWorker({ entry: ingestEntry, env: runtimeEnv })
    analysisWorkers = await Promise.all(analysisEntries.map((worker) => startWorker({ entry: worker, env: runtimeEnv })))
    evaluationWorker = await startWorker({ entry: evaluationEntry, env: runtimeEnv })
    for (const instance of generationInstances) {
      generationWorkers.set(
        instance,
        await startWorker({ entry: generationEntry, env: { ...runtimeEnv, ...generationEnv, GENERATION_INSTANCE_ID: instance } })
      )
    }
  }
}, 480_000)

afterAll(async () => {
  await Promise.all(Object.values(replicas).map((replica) => replica.server?.stop("SIGTERM").catch(() => replica.server?.stop("SIGKILL"))))
  await ingest?.stop("SIGTERM")
  await Promise.all(analysisWorkers.map((worker) => worker.stop("SIGTERM")))
  await evaluationWorker?.stop("SIGTERM")
  await Promise.all([...generationWorkers.values()].map((worker) => worker.stop("SIGTERM")))
  await observer.dispose()
  await dropDatabase(databaseName)
  await adminDatabase.dispose()
})

interface TokenPair {
  readonly access_token: string
  readonly refresh_token: string
}

const register = (replica: Replica, email: string) =>
  http(`${urlOf(replica)}/auth/register`, { body: { email, password: goodPassword } })
const login = (replica: Replica, email: string, password = goodPassword) =>
  http(`${urlOf(replica)}/auth/login`, { body: { email, password } })
const me = (replica: Replica, accessToken: string) => http(`${urlOf(replica)}/auth/me`, { headers: bearer(accessToken) })
const refresh = (replica: Replica, refreshToken: string) =>
  http(`${urlOf(replica)}/auth/refresh`, { method: "POST", headers: bearer(refreshToken) })

const expectStatus = (response: RawResponse, status: number) => expect(response.status, response.text).toBe(status)

// ---------------------------------------------------------------------------------------------------------------
// what the log and the read models hold

interface LogCounts {
  readonly endOffsets: ReadonlyArray<{ readonly partition: number; readonly offset: number }>
  /** Events per type, each event once (the adapter may store a re-appended event twice: same eventId). */
  readonly byType: Readonly<Record<string, number>>
  readonly registeredUserIds: ReadonlyArray<string>
  /** Records whose eventId an earlier record already had. */
  readonly duplicateRecords: number
}

/** The worker named in the job's `generator.started` event of this attempt. */
const startedBy = (generatorId: string, attempt = 1) =>
  Effect.gen(function*() {
    const log = yield* EventLog
    const topic = Topics.generator.name
    for (const end of yield* log.endOffsets(topic)) {
      const started = yield* log.read({ topic, partition: end.partition, fromOffset: 0, follow: false }).pipe(
        Stream.takeWhile((event) => event.offset < end.offset),
        Stream.filter((event) =>
          event.key === generatorId && event.envelope.type === "generator.started" &&
          (event.envelope.payload as { readonly attempt: number }).attempt === attempt
        ),
        Stream.runHead
      )
      if (started._tag === "Some") return (started.value.envelope.payload as { readonly worker: string }).worker
    }
    return yield* Effect.die(new Error(`no generator.started event of attempt ${attempt} for ${generatorId}`))
  })

const readUserTopic = Effect.gen(function*() {
  const log = yield* EventLog
  const ends = yield* log.endOffsets(userTopic)
  const byType: Record<string, number> = {}
  const registeredUserIds: Array<string> = []
  const seen = new Set<string>()
  let duplicateRecords = 0
  for (const end of ends) {
    yield* log.read({ topic: userTopic, partition: end.partition, fromOffset: 0, follow: false }).pipe(
      Stream.takeWhile((event) => event.offset < end.offset),
      Stream.runForEach((event) =>
        Effect.sync(() => {
          if (seen.has(event.envelope.eventId)) return void (duplicateRecords += 1)
          seen.add(event.envelope.eventId)
          byType[event.envelope.type] = (byType[event.envelope.type] ?? 0) + 1
          if (event.envelope.type === "user.registered") {
            registeredUserIds.push((event.envelope.payload as { readonly userId: string }).userId)
          }
        })
      )
    )
  }
  return {
    endOffsets: ends.map(({ offset, partition }) => ({ partition, offset })),
    byType,
    registeredUserIds,
    duplicateRecords
  } satisfies LogCounts
})

const readModels = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const users = yield* sql<{ readonly id: string }>`SELECT id FROM users`
  const [tokens] = yield* sql<{ readonly count: string }>`SELECT count(*) AS count FROM refresh_tokens`
  const cursors = yield* sql<{ readonly partition: number; readonly next_offset: string }>`
    SELECT partition, next_offset FROM projection_cursors WHERE projection = 'users' AND topic = ${userTopic}`
  return {
    userIds: users.map((row) => row.id),
    refreshTokens: Number(tokens?.count ?? 0),
    cursors: new Map(cursors.map((row) => [row.partition, Number(row.next_offset)]))
  }
})

/** Waits until the projection's cursors stand at the topic's end offsets (the replicas have applied everything). */
const caughtUp = async (timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const log = await observer.runPromise(readUserTopic)
    const models = await observer.runPromise(readModels)
    const behind = log.endOffsets.filter((end) => (models.cursors.get(end.partition) ?? 0) !== end.offset)
    if (behind.length === 0) return { log, models }
    if (Date.now() > deadline) {
      throw new Error(`projection "users" still behind after ${timeoutMs} ms: ${JSON.stringify({ ends: log.endOffsets, cursors: [...models.cursors] })}`)
    }
    await new Promise((wake) => setTimeout(wake, 250))
  }
}

// ---------------------------------------------------------------------------------------------------------------

describe("distributed runtime: two gateway processes on Kafka, PostgreSQL and MinIO", () => {
  it("runs register → login → me → refresh alternately through both replicas; a token from one works on the other", async () => {
    const { A, B } = replicas
    const email = uniqueEmail("distributed")

    const registered = await register(A, email)
    expectStatus(registered, 201)
    const account = registered.json as { readonly id: string; readonly email: string }
    expectStatus(await register(B, email), 409)

    const loggedIn = await login(B, email)
    expectStatus(loggedIn, 200)
    const first = loggedIn.json as TokenPair
    expectStatus(await login(A, email, "not the password at all"), 401)

    const meOnA = await me(A, first.access_token)
    expectStatus(meOnA, 200)
    expect(meOnA.json).toMatchObject({ id: account.id, email })
    const meOnB = await me(B, first.access_token)
    expect(meOnB.json).toStrictEqual(meOnA.json)

    const refreshedOnA = await refresh(A, first.refresh_token)
    expectStatus(refreshedOnA, 200)
    const second = refreshedOnA.json as TokenPair
    expectStatus(await me(B, second.access_token), 200)

    const refreshedOnB = await refresh(B, second.refresh_token)
    expectStatus(refreshedOnB, 200)
    const third = refreshedOnB.json as TokenPair

    // Rotation holds across replicas: the token A already rotated, presented to B, is a reuse and revokes the family,
    // so the newest refresh token stops working on A too.
    expectStatus(await refresh(B, first.refresh_token), 401)
    expectStatus(await refresh(A, third.refresh_token), 401)
  })

  it("starts two replicas at the same moment on new topics and a new database: both create, migrate and serve", async () => {
    const name = `${databaseName}_race`
    await createDatabase(name)
    const env = { ...runtimeEnv, KAFKA_TOPIC_PREFIX: `e2e-${runId}-race.`, DATABASE_URL: databaseUrlFor(name) }
    const started = await Promise.allSettled(
      [0, 1].map(async () => startServer({ runtime: "node", entry, env: { ...env, PORT: String(await freePort()) }, readyTimeoutMs: 90_000 }))
    )
    await Promise.all(started.map((result) => (result.status === "fulfilled" ? result.value.stop("SIGTERM") : undefined)))
    await dropDatabase(name)
    const failures = started.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []))
    expect(failures, failures.join("\n\n")).toEqual([])
  }, 180_000)

  it("refuses to start a replica without JWT_SECRET when KAFKA_BROKERS is set", async () => {
    const failure = await startServer({
      runtime: "node",
      entry,
      env: { ...runtimeEnv, PORT: String(await freePort()) },
      unsetEnv: ["JWT_SECRET"],
      readyTimeoutMs: 30_000
    }).then(
      async (server) => {
        await server.stop("SIGKILL")
        return "started"
      },
      (error: Error) => error.message
    )
    expect(failure).toMatch(/exited \(code [1-9]/)
    expect(failure).toContain("JWT_SECRET is required in the distributed runtime")
  })

  it("SIGKILL of a replica (B, then A itself) while registrations flow: every 201 logs in on both, the read models equal the log", async () => {
    const { A, B } = replicas
    type Outcome = "acknowledged" | "refused" | "no answer"
    const outcomes = new Map<string, { readonly outcome: Outcome; readonly detail?: string }>()
    let stopping = false
    let acknowledged = 0

    const waitForAcknowledged = async (count: number) => {
      const deadline = Date.now() + 60_000
      while (acknowledged < count) {
        if (Date.now() > deadline) throw new Error(`only ${acknowledged} of ${count} registrations acknowledged`)
        await new Promise((wake) => setTimeout(wake, 50))
      }
    }

    // Four clients, all through A; while A is down they wait for it.
    const client = async (index: number) => {
      let email = uniqueEmail(`fault-${index}`)
      while (!stopping) {
        try {
          const response = await register(A, email)
          if (response.status === 201) {
            outcomes.set(email, { outcome: "acknowledged" })
            acknowledged += 1
          } else if (response.status === 503) {
            // Appended, but not projected within READ_YOUR_WRITES_TIMEOUT (a replica died holding a batch): unknown.
            outcomes.set(email, { outcome: "no answer", detail: response.text })
          } else {
            outcomes.set(email, { outcome: "refused", detail: `${response.status} ${response.text}` })
          }
        } catch (error) {
          // A refused connection never reached a server: the same email is tried again once A is back.
          if ((error as NodeJS.ErrnoException).code === "ECONNREFUSED") {
            await new Promise((wake) => setTimeout(wake, 200))
            continue
          }
          outcomes.set(email, { outcome: "no answer", detail: (error as Error).message })
        }
        email = uniqueEmail(`fault-${index}`)
      }
    }
    const clients = Promise.all([0, 1, 2, 3].map(client))

    const began = Date.now()
    const step = (what: string) => console.info(`fault test +${((Date.now() - began) / 1000).toFixed(1)} s: ${what} (${acknowledged} acknowledged)`)
    try {
      await waitForAcknowledged(10)
      step("killing B")
      // B projects too: killed mid-batch, its uncommitted transaction rolls back and the cursor lock passes to A.
      const killedB = await B.server!.stop("SIGKILL")
      expect(killedB.signal).toBe("SIGKILL")
      await waitForAcknowledged(acknowledged + 10)
      step("restarting B")
      await start(B)
      await waitForAcknowledged(acknowledged + 5)
      step("killing A")

      // A serves the requests: some are in flight when it dies.
      const killedA = await A.server!.stop("SIGKILL")
      expect(killedA.signal).toBe("SIGKILL")
      await new Promise((wake) => setTimeout(wake, 500))
      step("restarting A")
      await start(A)
      await waitForAcknowledged(acknowledged + 10)
      step("stopping the clients")
    } finally {
      stopping = true
      await clients
    }

    const of = (outcome: Outcome) => [...outcomes].filter(([, value]) => value.outcome === outcome).map(([email]) => email)
    const refused = [...outcomes].filter(([, value]) => value.outcome === "refused")
    expect(refused, "no registration may fail for another reason than a killed replica").toEqual([])
    const acked = of("acknowledged")

    // Wait for the log to be fully applied before probing, so a probe cannot race an unprojected registration.
    await caughtUp()
    step("caught up; probing and logging in")
    // The registrations in flight when A died (or answered 503) may or may not be in the log; a second try tells which.
    for (const email of of("no answer")) {
      const probe = await register(B, email)
      expect([201, 409], probe.text).toContain(probe.status)
    }

    // Every acknowledged account logs in on both replicas (its password hash survived, whichever replica projected it).
    for (const email of acked) {
      expectStatus(await login(A, email), 200)
      expectStatus(await login(B, email), 200)
    }

    const { log, models } = await caughtUp()
    // One row per registration event, the same ids, and one refresh-token row per login and per rotation.
    expect(models.userIds.length).toBe(log.byType["user.registered"] ?? 0)
    expect(new Set(models.userIds)).toStrictEqual(new Set(log.registeredUserIds))
    expect(models.refreshTokens).toBe((log.byType["user.logged-in"] ?? 0) + (log.byType["user.token-refreshed"] ?? 0))
    // The cursors stand exactly at the end of every partition: not short (lost), not past (skipped).
    for (const end of log.endOffsets) expect(models.cursors.get(end.partition), `partition ${end.partition}`).toBe(end.offset)
    console.info(
      `fault test: ${acked.length} registrations acknowledged, ${of("no answer").length} unanswered while A was down; ` +
        `log ${JSON.stringify(log.byType)} over ${log.endOffsets.length} partitions ` +
        `(${log.duplicateRecords} duplicate records); ${models.userIds.length} user rows`
    )
  }, 300_000)
})

describe("distributed runtime: the audit feed", () => {
  interface AuditEvent {
    readonly position: number
    readonly event_id: string
    readonly type: string
    readonly aggregate_id: string
    readonly topic: string
    readonly partition: number
    readonly offset: number
  }

  it("both replicas project every user event of the log into the audit feed once, each aggregate in log order", async () => {
    const { A, B } = replicas
    expectStatus(await register(A, auditorEmail), 201)
    const token = ((await login(B, auditorEmail)).json as TokenPair).access_token
    const userEvents = async (replica: Replica) => {
      const response = await http(`${urlOf(replica)}/events?format=ndjson`, { headers: bearer(token), timeoutMs: 60_000 })
      expectStatus(response, 200)
      return response.text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as AuditEvent)
        .filter((event) => event.topic === userTopic)
    }
    const { log } = await caughtUp()
    const inLog = Object.values(log.byType).reduce((sum, count) => sum + count, 0)
    const deadline = Date.now() + 60_000
    let feed = await userEvents(A)
    while (feed.length < inLog && Date.now() < deadline) {
      await new Promise((wake) => setTimeout(wake, 500))
      feed = await userEvents(A)
    }
    expect(feed.length).toBe(inLog)
    expect(new Set(feed.map((event) => event.event_id)).size).toBe(inLog)
    expect(new Set(feed.filter((event) => event.type === "user.registered").map((event) => event.aggregate_id)))
      .toStrictEqual(new Set(log.registeredUserIds))
    const positions = feed.map((event) => event.position)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    const lastOffset = new Map<string, number>()
    for (const event of feed) {
      const key = `${event.partition}:${event.aggregate_id}`
      expect(event.offset, key).toBeGreaterThan(lastOffset.get(key) ?? -1)
      lastOffset.set(key, event.offset)
    }
    expect(await userEvents(B)).toEqual(feed)
  }, 120_000)
})

describe.runIf(hasIngest)("distributed runtime: datasets through the ingest process", () => {
  /** 201 at once, or 202 `processing` and then `uploaded` once the ingest process is done. */
  const uploadedThrough = async (baseUrl: string, token: string, filename: string, content: Buffer) => {
    const response = await upload(baseUrl, token, filename, content)
    expect([201, 202], response.text).toContain(response.status)
    const { id } = response.json as { readonly id: string }
    const deadline = Date.now() + 120_000
    for (;;) {
      const detail = await http(`${baseUrl}/datasets/${id}`, { headers: bearer(token) })
      expect(detail.status, detail.text).toBe(200)
      if ((detail.json as { readonly status: string }).status === "uploaded") return id
      if (Date.now() > deadline) throw new Error(`dataset ${id} still not uploaded after 120 s: ${detail.text}`)
      await new Promise((wake) => setTimeout(wake, 500))
    }
  }

  it("uploads penguins.csv through A; B describes it, downloads it and deletes it; A then answers 404", async () => {
    const { A, B } = replicas
    const token = await createAccount(urlOf(A), "distributed-datasets")
    const id = await uploadedThrough(urlOf(A), token, "penguins.csv", realDataset("penguins"))

    const detail = await getDataset(urlOf(B), token, id)
    expect(detail).toMatchObject({ filename: "penguins.csv", row_count: 344, column_count: 7, format: "csv" })
    expect(detail.columns.find((column) => column.name === "body_mass_g")).toMatchObject({ type: "integer", missing_count: 2 })

    const downloaded = await download(urlOf(B), token, id)
    expect(downloaded.status, downloaded.text.slice(0, 500)).toBe(200)
    expect(downloaded.text.split(/\r?\n/).filter((line) => line !== "")).toHaveLength(345)

    const listedOnA = await http(`${urlOf(A)}/datasets/`, { headers: bearer(token) })
    expect((listedOnA.json as ReadonlyArray<{ readonly id: string }>).map((item) => item.id)).toEqual([id])

    expectStatus(await http(`${urlOf(B)}/datasets/${id}`, { method: "DELETE", headers: bearer(token) }), 204)
    expectStatus(await http(`${urlOf(A)}/datasets/${id}`, { headers: bearer(token) }), 404)
  }, 240_000)

  it("profiles through B and scans for personal data through A, answered by the profiling and privacy processes", async () => {
    const { A, B } = replicas
    const token = await createAccount(urlOf(A), "distributed-analysis")
    const id = await uploadedThrough(urlOf(A), token, "telco_churn.csv", realDataset("telco_churn"))

    const profiled = await http(`${urlOf(B)}/datasets/${id}/profile`, { method: "POST", headers: bearer(token), timeoutMs: 120_000 })
    expectStatus(profiled, 200)
    expect((profiled.json as { readonly row_count: number }).row_count).toBe(7043)

    const scanned = await http(`${urlOf(A)}/datasets/${id}/pii-detection`, { method: "POST", headers: bearer(token), timeoutMs: 120_000 })
    expectStatus(scanned, 200)
    // The churn table holds service and billing attributes, no personal data and no demographic columns.
    expect(scanned.json).toMatchObject({
      dataset_id: id,
      scan: "basic",
      total_rows: 7043,
      scanned_rows: 7043,
      pii_detected: false,
      risk_level: "low",
      findings: []
    })

    const flags = await http(`${urlOf(B)}/datasets/${id}/pii-flags`, { headers: bearer(token) })
    expectStatus(flags, 200)
    expect((flags.json as { readonly basic: unknown }).basic).toEqual(scanned.json)
    const listed = (await http(`${urlOf(B)}/datasets/`, { headers: bearer(token) })).json as ReadonlyArray<{
      readonly has_profile: boolean
      readonly has_pii_analysis: boolean
    }>
    expect(listed[0]).toMatchObject({ has_profile: true, has_pii_analysis: true })
  }, 240_000)

  it("evaluates a generator's output through B and A, answered by the evaluation process", async () => {
    const { A, B } = replicas
    const token = await createAccount(urlOf(A), "distributed-evaluation")
    const id = await uploadedThrough(urlOf(A), token, "penguins.csv", realDataset("penguins"))
    const { final } = await generateAndWait(urlOf(B), token, id, { generator_type: "gaussian_copula", num_rows: 300, seed: 5 })
    expect(final.status).toBe("completed")

    const quick = quickResult(await requestQuickEvaluation(urlOf(B), token, final.id))
    expect(quick.overall_score).toBeGreaterThan(0)

    const run = acceptedRun(await requestEvaluationRun(urlOf(A), token, { generator_id: final.id, dataset_id: id }))
    const record = await pollEvaluation(urlOf(B), token, run)
    expect(record).toMatchObject({ evaluation_id: run, kind: "run", status: "completed", error: null })
    expect(record.overall_score).toBeGreaterThan(0)
  }, 300_000)

  it("generates through A and B with two generation processes; the one running a job is killed, the other finishes it", async () => {
    const { A, B } = replicas
    const token = await createAccount(urlOf(A), "distributed-generation")
    const id = await uploadedThrough(urlOf(A), token, "diamonds.csv", realDataset("diamonds"))

    const quick = accepted(await requestGeneration(urlOf(A), token, id, { generator_type: "gaussian_copula", num_rows: 1000, seed: 3 }))
    const done = (await pollGenerator(urlOf(B), token, quick.generator_id)).at(-1)!
    expect(done).toMatchObject({ status: "completed", attempts: 1 })
    const downloaded = await download(urlOf(A), token, done.output_dataset_id!)
    expectStatus(downloaded, 200)
    expect(downloaded.text.split(/\r?\n/).filter((line) => line !== "")).toHaveLength(1001)

    const long = accepted(await requestGeneration(urlOf(B), token, id, { generator_type: "gaussian_copula", num_rows: 3_000_000, seed: 4 }))
    await pollGenerator(urlOf(A), token, long.generator_id, (record) => record.phase === "fitting" || record.phase === "sampling")
    const worker = await observer.runPromise(startedBy(long.generator_id))
    expect(generationInstances).toContain(worker)
    const killedAt = Date.now()
    await generationWorkers.get(worker)!.stop("SIGKILL")
    generationWorkers.delete(worker)
    // The survivor's watchdog notices the silence within the stall timeout (3 s here) plus a watchdog round, and says
    // so in its log; the group hands the dead member's partitions to the survivor.
    // Requeued: back to `queued` (or already running again as attempt 2). Starting it again then waits for the group
    // to hand the dead member's partitions over (Kafka's session timeout), which is not the watchdog's to shorten.
    await pollGenerator(urlOf(A), token, long.generator_id, (record) => record.phase === "queued" || record.attempts === 2, 60_000)
    expect(Date.now() - killedAt, "requeued within the stall timeout and a few seconds").toBeLessThan(3_000 + 10_000)
    const survivor = [...generationWorkers.values()][0]!
    expect(survivor.output).toMatch(/generation worker lost: no heartbeat/)
    expect(survivor.output).toMatch(/generation job requeued/)
    const final = (await pollGenerator(urlOf(A), token, long.generator_id, undefined, 200_000)).at(-1)!
    expect(final).toMatchObject({ status: "completed", attempts: 2, progress: 100 })
    expect((await getDataset(urlOf(B), token, final.output_dataset_id!)).row_count).toBe(3_000_000)
    expect(await observer.runPromise(startedBy(long.generator_id, 2))).not.toBe(worker)
  }, 300_000)

  it("an unparseable upload is refused with the same problem on either replica, and nothing is stored", async () => {
    const { A, B } = replicas
    const token = await createAccount(urlOf(B), "distributed-refused")
    for (const replica of [A, B]) {
      const response = await upload(urlOf(replica), token, "ragged.csv", Buffer.from("a,b\n1,2\n3,4,5\n"))
      expectStatus(response, 422)
      expect((response.json as { readonly code: string }).code).toBe("unparseable_file")
    }
    expect((await http(`${urlOf(A)}/datasets/`, { headers: bearer(token) })).json).toEqual([])
  }, 120_000)
})
