// Load: BENCH_LOAD_USERS (50) concurrent users, each registering and logging in once, then for BENCH_LOAD_SECONDS
// (180) going round: upload penguins.csv, profile it, scan it, generate 300 rows with the Gaussian copula (polling the
// record until it completes), download the output, and evaluate it (quick). On the embedded default and on the
// distributed runtime (every service of deploy/services.ts as its own process, the gateway twice, on the Kafka,
// PostgreSQL and MinIO of `npm run infra -- up`), one after the other (BENCH_LOAD_TARGETS=embedded,distributed).
//
// A quick evaluation that outlasts the service's EVALUATION_TIMEOUT answers 202; the user then polls its Location.
// Every request has a deadline (60 s). An error is any answer other than the one the step expects, or none. At the
// end every user lists their datasets: each upload and each output acknowledged must be there with its row count
// ("lost writes"). Per step: count, p50, p99, max; throughput in requests per second and rounds per minute.
//
// Why not autocannon: it replays fixed request sequences at full speed; a user here waits for their own job to
// finish and uses the ids it got back, which a driver of user flows does. Each user has its own keep-alive
// connection pool (undici's fetch), as a browser or a script would.
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { layerPostgres } from "@synth/sql"
import { freePort, repoRoot, type RunningServer, startServer } from "../support/server.ts"
import { type RunningWorker, startWorker } from "../support/worker.ts"

const users = Number(process.env.BENCH_LOAD_USERS ?? 50)
const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 180)
const targets = (process.env.BENCH_LOAD_TARGETS ?? "embedded,distributed").split(",").map((target) => target.trim())
const deadlineMs = 60_000
const penguins = readFileSync(join(repoRoot, "test/fixtures/datasets/penguins.csv"))

interface Sample {
  readonly step: string
  readonly ms: number
  readonly ok: boolean
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

class StepFailed extends Error {}

/** One user's session against `baseUrl`: every request timed under its step name. */
const session = (baseUrl: string, samples: Array<Sample>) => {
  let token = ""
  const call = async (step: string, path: string, init: RequestInit, expected: ReadonlyArray<number>) => {
    const started = performance.now()
    let response: Response | undefined
    let text = ""
    try {
      response = await fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { ...(token === "" ? {} : { authorization: `Bearer ${token}` }), ...init.headers },
        signal: AbortSignal.timeout(deadlineMs)
      })
      text = await response.text()
    } catch (error) {
      samples.push({ step, ms: performance.now() - started, ok: false })
      throw new StepFailed(`${step}: ${error instanceof Error ? error.message : String(error)}`)
    }
    const ok = expected.includes(response.status)
    samples.push({ step, ms: performance.now() - started, ok })
    if (!ok) throw new StepFailed(`${step}: ${response.status} ${text.slice(0, 200)}`)
    const isJson = /json/.test(response.headers.get("content-type") ?? "")
    return text === "" || !isJson ? undefined : (JSON.parse(text) as Record<string, unknown>)
  }
  /** Asks `path` every half second until `done` says so (two minutes at most). */
  const until = async (step: string, path: string, done: (body: Record<string, unknown>) => boolean) => {
    for (const started = Date.now(); Date.now() - started < 120_000;) {
      const body = (await call(step, path, {}, [200]))!
      if (done(body)) return body
      await new Promise((tick) => setTimeout(tick, 500))
    }
    throw new StepFailed(`${step}: not done in two minutes`)
  }
  const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  return {
    signUp: async () => {
      const email = `load-${randomBytes(6).toString("hex")}@example.com`
      const password = "correct horse battery staple"
      await call("POST /auth/register", "/auth/register", json({ email, password }), [201])
      token = String((await call("POST /auth/login", "/auth/login", json({ email, password }), [200]))!.access_token)
    },
    round: async () => {
      const form = new FormData()
      form.append("file", new Blob([new Uint8Array(penguins)], { type: "text/csv" }), "penguins.csv")
      // 202 (still working after the service's own timeout) is an answer too; the next step then waits for it.
      const uploaded = await call("POST /datasets/upload", "/datasets/upload", { method: "POST", body: form }, [201, 202])
      const dataset = String(uploaded!.id)
      if (uploaded!.status === "processing") await until("GET /datasets/:id", `/datasets/${dataset}`, (body) => body.status !== "processing")
      await call("POST /datasets/:id/profile", `/datasets/${dataset}/profile`, { method: "POST" }, [200, 202])
      await call("POST /datasets/:id/pii-detection", `/datasets/${dataset}/pii-detection`, { method: "POST" }, [200, 202])
      const generated = await call(
        "POST /generators/dataset/:id/generate",
        `/generators/dataset/${dataset}/generate`,
        json({ generator_type: "gaussian_copula", num_rows: 300 }),
        [202]
      )
      const generator = String(generated!.generator_id)
      const record = await until("GET /generators/:id", `/generators/${generator}`, (body) => body.status !== "running")
      if (record.status !== "completed") throw new StepFailed(`generation ${generator} ended ${String(record.status)}`)
      const output = String(record.output_dataset_id)
      await call("GET /datasets/:id/download", `/datasets/${output}/download`, {}, [200])
      // 202: the evaluation outlasted EVALUATION_TIMEOUT and goes on; the user polls it, as the Location says.
      const quick = await call("POST /evaluations/quick/:id", `/evaluations/quick/${generator}`, { method: "POST" }, [200, 202])
      if (quick!.status === "running") {
        const evaluation = await until("GET /evaluations/:id", `/evaluations/${String(quick!.evaluation_id)}`, (body) => body.status !== "running")
        if (evaluation.status !== "completed") throw new StepFailed(`quick evaluation ${String(quick!.evaluation_id)} ended ${String(evaluation.status)}`)
      }
      return { dataset, output }
    },
    /** The user's datasets as the service lists them: id → row count. */
    listed: async () => {
      const found = new Map<string, number>()
      let path: string | null = "/datasets/?limit=100"
      while (path !== null) {
        const started = performance.now()
        const response: Response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(deadlineMs) })
        const page = (await response.json()) as ReadonlyArray<{ id: string; row_count: number }>
        samples.push({ step: "GET /datasets/", ms: performance.now() - started, ok: response.ok })
        for (const item of page) found.set(item.id, item.row_count)
        const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1]
        path = next ?? null
      }
      return found
    }
  }
}

interface LoadResult {
  readonly target: string
  readonly samples: ReadonlyArray<Sample>
  readonly rounds: number
  readonly failures: ReadonlyArray<string>
  readonly lost: number
  /** Writes of users whose list could not be read at the end (neither found nor lost). */
  readonly unverified: number
  readonly acknowledged: number
  readonly elapsedMs: number
}

const runLoad = async (target: string, baseUrls: ReadonlyArray<string>): Promise<LoadResult> => {
  const samples: Array<Sample> = []
  const failures: Array<string> = []
  let rounds = 0
  let acknowledged = 0
  let lost = 0
  let unverified = 0
  const started = performance.now()
  const stopAt = Date.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: users }, async (_, index) => {
      // Users spread over the gateway replicas, as a load balancer would.
      const user = session(baseUrls[index % baseUrls.length]!, samples)
      const written = new Map<string, number>()
      try {
        await user.signUp()
        while (Date.now() < stopAt) {
          const { dataset, output } = await user.round()
          written.set(dataset, 344)
          written.set(output, 300)
          rounds++
        }
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error))
      }
      acknowledged += written.size
      const listed = await user.listed().catch(() => undefined)
      if (listed === undefined) unverified += written.size
      else for (const [id, rows] of written) if (listed.get(id) !== rows) lost++
    })
  )
  return { target, samples, rounds, failures, lost, unverified, acknowledged, elapsedMs: performance.now() - started }
}

const report = (result: LoadResult) => {
  const steps = new Map<string, Array<Sample>>()
  for (const sample of result.samples) steps.set(sample.step, [...(steps.get(sample.step) ?? []), sample])
  const errors = result.samples.filter((sample) => !sample.ok).length
  console.log(JSON.stringify({
    bench: "load",
    target: result.target,
    users,
    seconds,
    rounds: result.rounds,
    requests: result.samples.length,
    errors,
    failures: result.failures.slice(0, 5),
    acknowledged: result.acknowledged,
    lost: result.lost,
    unverified: result.unverified
  }))
  console.error(`\n${result.target}: ${users} users, ${(result.elapsedMs / 1000).toFixed(0)} s, ${result.rounds} rounds ` +
    `(${(result.rounds / (result.elapsedMs / 60_000)).toFixed(1)}/min), ${result.samples.length} requests ` +
    `(${(result.samples.length / (result.elapsedMs / 1000)).toFixed(1)}/s), ${errors} errors, ` +
    `${result.lost} of ${result.acknowledged} acknowledged writes lost (${result.unverified} not checked: the list did not answer)`)
  // Failures by step and answer (the status and the problem's code), so a run's errors read at a glance.
  const kinds = new Map<string, number>()
  for (const failure of result.failures) {
    const kind = /^([^:]+: (?:\d{3}|\w+))(?:.*?"code":"([a-z_]+)")?/.exec(failure)
    const name = kind === null ? failure.slice(0, 80) : `${kind[1]}${kind[2] === undefined ? "" : ` ${kind[2]}`}`
    kinds.set(name, (kinds.get(name) ?? 0) + 1)
  }
  for (const [kind, count] of kinds) console.error(`  failure ×${count}: ${kind}`)
  console.error("| step | requests | p50 ms | p99 ms | max ms | errors |")
  console.error("|---|---:|---:|---:|---:|---:|")
  for (const [step, list] of steps) {
    const sorted = list.map((sample) => sample.ms).sort((a, b) => a - b)
    console.error(`| ${step} | ${list.length} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} | ` +
      `${sorted.at(-1)!.toFixed(0)} | ${list.filter((sample) => !sample.ok).length} |`)
  }
}

// BENCH_LOAD_NODE_OPTIONS: Node options for the servers, e.g. "--cpu-prof --cpu-prof-dir=DIR" to profile them.
const serverNodeOptions = process.env.BENCH_LOAD_NODE_OPTIONS
const generous = {
  AUTH_RATE_LIMIT_PER_MINUTE: "100000",
  RATE_LIMIT_PER_MINUTE: "100000",
  ...(serverNodeOptions === undefined ? {} : { NODE_OPTIONS: serverNodeOptions })
}

const embedded = async () => {
  const server = await startServer({ runtime: "node", env: generous, readyTimeoutMs: 120_000 })
  try {
    report(await runLoad("embedded", [server.baseUrl]))
  } finally {
    // Shutdown drains for up to SHUTDOWN_GRACE (10 s) and hands jobs back: more than the default wait.
    await server.stop("SIGTERM", 60_000)
  }
}

const distributed = async () => {
  for (const name of ["KAFKA_BROKERS", "DATABASE_URL", "S3_ENDPOINT"]) {
    if (process.env[name] === undefined) throw new Error(`the distributed load needs ${name}: source the env of \`npm run -s infra -- up\``)
  }
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`
  const database = `synth_load_${runId}`
  const admin = layerPostgres(Redacted.make(process.env.DATABASE_URL!))
  const sql = (statement: string) => Effect.runPromise(Effect.provide(Effect.flatMap(SqlClient.SqlClient, (client) => client.unsafe(statement)), admin))
  await sql(`CREATE DATABASE "${database}"`)
  const databaseUrl = new URL(process.env.DATABASE_URL!)
  databaseUrl.pathname = `/${database}`
  const env = {
    ...generous,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
    KAFKA_TOPIC_PREFIX: `load-${runId}.`,
    DATABASE_URL: databaseUrl.toString(),
    S3_ENDPOINT: process.env.S3_ENDPOINT!,
    JWT_SECRET: randomBytes(32).toString("base64url")
  }
  const gateways: Array<RunningServer> = []
  const workers: Array<RunningWorker> = []
  try {
    // As deploy/services.ts lists them (a bench may not import deploy/): two gateway replicas, one of each worker.
    // The first replica creates the topics and migrates; the second starts after it.
    for (let replica = 0; replica < 2; replica++) {
      gateways.push(await startServer({ runtime: "node", entry: "services/gateway/src/main.ts", env: { ...env, PORT: String(await freePort()) }, readyTimeoutMs: 120_000 }))
    }
    for (const name of ["ingest", "profiling", "privacy", "generation", "evaluation"]) {
      workers.push(await startWorker({ entry: `services/${name}/src/main.ts`, env: { ...env, GENERATION_INSTANCE_ID: `${name}-load` } }))
    }
    report(await runLoad("distributed", gateways.map((server) => server.baseUrl)))
  } finally {
    await Promise.all([...gateways, ...workers].map((process) => process.stop("SIGTERM", 60_000)))
    const logDir = process.env.BENCH_LOAD_LOG_DIR
    if (logDir !== undefined) {
      mkdirSync(logDir, { recursive: true })
      gateways.forEach((gateway, replica) => writeFileSync(join(logDir, `gateway-${replica}.log`), gateway.output))
      workers.forEach((worker, index) => writeFileSync(join(logDir, `worker-${index}.log`), worker.output))
    }
    await sql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined)
  }
}

if (targets.includes("embedded")) await embedded()
if (targets.includes("distributed")) await distributed()
