// Starts the servers of the distributed runtime that the environment does not already name (Kafka, PostgreSQL,
// MinIO), side by side, on 127.0.0.1; `down()` stops them. Used by the test setup and, as a CLI, by developers:
//   npm run -s infra -- up [kafka] [postgres] [minio]
import { rmSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { infraCacheDir } from "./cacheDir.ts"
import type { LocalServer, StartOptions } from "./localServer.ts"

export type ServerName = "kafka" | "postgres" | "minio"

interface ServerModule {
  readonly start: (options: StartOptions) => Promise<LocalServer>
}

interface ServerKind {
  /** Set in the environment: that server is given, nothing is started. */
  readonly givenBy: string
  readonly load: () => Promise<ServerModule>
}

const serverKinds: Readonly<Record<ServerName, ServerKind>> = {
  kafka: { givenBy: "KAFKA_BROKERS", load: () => import("./kafka.ts") },
  postgres: { givenBy: "DATABASE_URL", load: () => import("./postgres.ts") },
  minio: { givenBy: "S3_ENDPOINT", load: () => import("./minio.ts") }
}

const serverNames = Object.keys(serverKinds) as ReadonlyArray<ServerName>

export type ServerOutcome =
  | { readonly name: ServerName; readonly status: "given"; readonly variable: string }
  | {
    readonly name: ServerName
    readonly status: "started"
    readonly env: Readonly<Record<string, string>>
    readonly millis: number
  }
  | { readonly name: ServerName; readonly status: "failed"; readonly message: string; readonly millis: number }

export interface UpOptions {
  /** Downloads and builds kept between runs: INFRA_CACHE_DIR, else the user's cache (cacheDir.ts). */
  readonly cacheDir?: string
  /** Which servers to consider (all by default); those named by `env` are never started. */
  readonly servers?: ReadonlyArray<ServerName>
  /** The environment that may already name servers; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Gives up on a server that is not up after this long (a cold build included). */
  readonly timeoutMs?: number
  readonly log?: (line: string) => void
}

export interface Infra {
  /** What the started servers add to the environment (nothing for given or failed ones). */
  readonly env: Readonly<Record<string, string>>
  readonly outcomes: ReadonlyArray<ServerOutcome>
}

const defaultLog = (line: string) => console.error(line)

const seconds = (millis: number) => `${(millis / 1000).toFixed(1)} s`

/** Servers that `up` started in this process and `down` has not stopped yet. */
const started: Array<{ readonly name: ServerName; readonly server: LocalServer; readonly runDir: string }> = []

// A process that exits without `down` (vitest exits on SIGINT and SIGTERM without its teardown) leaves the servers
// to their modules' exit handlers or parent-death signals; their run directories are removed here. Prepended: an
// "exit" listener that calls process.exit again (vitest has one) ends the process before later listeners run.
let removesRunDirsOnExit = false
const removeRunDirsOnExit = () => {
  if (removesRunDirsOnExit) return
  removesRunDirsOnExit = true
  process.prependOnceListener("exit", () => {
    for (const { runDir } of started) rmSync(runDir, { recursive: true, force: true, maxRetries: 3 })
  })
}

const startOne = async (
  name: ServerName,
  options: { readonly cacheDir: string; readonly timeoutMs: number; readonly log: (line: string) => void }
): Promise<ServerOutcome> => {
  const log = (line: string) => options.log(`[${name}] ${line}`)
  const begun = performance.now()
  const elapsed = () => performance.now() - begun
  let timedOut = false
  try {
    const runDir = await mkdtemp(join(tmpdir(), `synth-${name}-`))
    const starting = serverKinds[name].load().then((module) => module.start({ cacheDir: options.cacheDir, runDir, log }))
    // A start cannot be cancelled: one that finishes after its deadline is stopped as soon as it is up.
    void starting.then((server) => timedOut ? server.stop() : undefined, () => undefined)
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true
        reject(new Error(`not up after ${seconds(options.timeoutMs)}; its files are in ${runDir}`))
      }, options.timeoutMs)
    })
    const server = await Promise.race([starting, deadline]).finally(() => clearTimeout(timer))
    started.push({ name, server, runDir })
    log(`ready in ${seconds(elapsed())}: ${Object.keys(server.env).join(", ")}`)
    return { name, status: "started", env: server.env, millis: elapsed() }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    log(`FAILED after ${seconds(elapsed())}: ${message}`)
    return { name, status: "failed", message, millis: elapsed() }
  }
}

/**
 * Starts, in parallel, each server whose variable the environment does not set. Never throws: a server that cannot
 * start is a `failed` outcome, and the caller decides what that means (in CI: the run fails).
 */
export const up = async (options: UpOptions = {}): Promise<Infra> => {
  const env = options.env ?? process.env
  const log = options.log ?? defaultLog
  const cacheDir = options.cacheDir ?? infraCacheDir(env)
  const names = options.servers ?? serverNames
  // Empty counts as unset, as compose files and shells often write it.
  const given = names.filter((name) => (env[serverKinds[name].givenBy] ?? "") !== "")
  for (const name of given) log(`[${name}] given by ${serverKinds[name].givenBy}: not starting one`)
  const toStart = names.filter((name) => !given.includes(name))
  if (toStart.length > 0) log(`[infra] starting ${toStart.join(", ")} (cache ${cacheDir})`)
  const begun = performance.now()
  const outcomes = [
    ...given.map((name): ServerOutcome => ({ name, status: "given", variable: serverKinds[name].givenBy })),
    ...(await Promise.all(toStart.map((name) => startOne(name, { cacheDir, log, timeoutMs: options.timeoutMs ?? 20 * 60_000 }))))
  ]
  if (toStart.length > 0) log(`[infra] done in ${seconds(performance.now() - begun)}`)
  if (started.length > 0) removeRunDirsOnExit()
  const startedEnv = Object.assign({}, ...outcomes.map((outcome) => outcome.status === "started" ? outcome.env : {}))
  return { env: startedEnv, outcomes }
}

/** Stops every server `up` started in this process, in parallel, and removes their run directories. */
export const down = async (log: (line: string) => void = defaultLog): Promise<void> => {
  // Each stays in `started` until it has stopped, so an exit meanwhile still removes its run directory.
  const stopping = [...started].map(async (entry) => {
    const { name, server } = entry
    const begun = performance.now()
    try {
      await server.stop()
      started.splice(started.indexOf(entry), 1)
      log(`[${name}] stopped in ${seconds(performance.now() - begun)}`)
    } catch (error) {
      log(`[${name}] stop failed: ${error instanceof Error ? error.message : String(error)}`)
      throw error
    }
  })
  const results = await Promise.allSettled(stopping)
  const failed = results.filter((result) => result.status === "rejected")
  if (failed.length > 0) throw new Error(`${failed.length} server(s) did not stop cleanly; see the log above`)
}

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`

const usage = `usage: npm run -s infra -- up [${serverNames.join("|")} ...]
Starts the servers (all by default) that KAFKA_BROKERS, DATABASE_URL and S3_ENDPOINT do not already name, prints
their settings as export lines on stdout, and keeps them running until Ctrl-C.`

const main = async (args: ReadonlyArray<string>) => {
  const [command, ...names] = args
  const unknown = names.filter((name) => !serverNames.includes(name as ServerName))
  if (command !== "up" || unknown.length > 0) {
    console.error(unknown.length > 0 ? `unknown server: ${unknown.join(", ")}\n${usage}` : usage)
    process.exitCode = 2
    return
  }
  const infra = await up(names.length > 0 ? { servers: names as ReadonlyArray<ServerName> } : {})
  const failed = infra.outcomes.filter((outcome) => outcome.status === "failed")
  if (failed.length > 0) {
    await down()
    console.error(`[infra] could not start ${failed.map((outcome) => outcome.name).join(", ")}; stopped the others`)
    process.exitCode = 1
    return
  }
  for (const [key, value] of Object.entries(infra.env)) console.log(`export ${key}=${shellQuote(value)}`)
  console.error("[infra] running; Ctrl-C stops the servers and removes their data")
  await new Promise<void>((resolveSignal) => {
    process.once("SIGINT", resolveSignal)
    process.once("SIGTERM", resolveSignal)
  })
  await down()
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2))
}
