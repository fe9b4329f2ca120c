// Starts the servers of the distributed runtime that the environment does not already name (Kafka, PostgreSQL,
// MinIO), side by side, on 127.0.0.1; `down()` stops them. Used by the test setup and, as a CLI, by developers:
//   npm run -s infra -- up [kafka] [postgres] [minio]
import { rmSync } from "node:fs"
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
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
  /**
   * Where the servers keep their data between runs (DIR/kafka, DIR/postgres, DIR/minio): reused when there, left
   * when they stop. Without it each run starts empty and its data is removed.
   */
  readonly dataDir?: string
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
    for (const { runDir } of started) if (runDir !== "") rmSync(runDir, { recursive: true, force: true, maxRetries: 3 })
  })
}

const startOne = async (
  name: ServerName,
  options: { readonly cacheDir: string; readonly timeoutMs: number; readonly log: (line: string) => void; readonly dataDir?: string | undefined }
): Promise<ServerOutcome> => {
  const log = (line: string) => options.log(`[${name}] ${line}`)
  const begun = performance.now()
  const elapsed = () => performance.now() - begun
  let timedOut = false
  try {
    const keep = options.dataDir !== undefined
    const runDir = keep ? join(options.dataDir!, name) : await mkdtemp(join(tmpdir(), `synth-${name}-`))
    if (keep) await mkdir(runDir, { recursive: true })
    const starting = serverKinds[name].load().then((module) => module.start({ cacheDir: options.cacheDir, runDir, log, keep }))
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
    started.push({ name, server, runDir: keep ? "" : runDir })
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
    ...(await Promise.all(toStart.map((name) => startOne(name, { cacheDir, log, timeoutMs: options.timeoutMs ?? 20 * 60_000, dataDir: options.dataDir }))))
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

const usage = `usage: npm run -s infra -- up [${serverNames.join("|")} ...] [--write-env FILE] [--data-dir DIR]
Starts the servers (all by default) that KAFKA_BROKERS, DATABASE_URL and S3_ENDPOINT do not already name, prints
their settings as export lines on stdout, and keeps them running until Ctrl-C.
  --write-env FILE also writes the export lines to FILE, only once every server is up (never a partial file; not
                   called --env-file, which Node takes for its own wherever it appears on the command line)
  --data-dir DIR   keeps the servers' data in DIR between runs (the event log, the read models, the blobs survive a
                   restart of the servers); without it each run starts empty and removes its data`

/** The names and the two options of the command line; undefined when it does not parse. */
const parseArgs = (args: ReadonlyArray<string>) => {
  const names: Array<ServerName> = []
  let envFile: string | undefined
  let dataDir: string | undefined
  const [command, ...rest] = args
  if (command !== "up") return undefined
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index]!
    if (arg === "--write-env" || arg === "--data-dir") {
      const value = rest[++index]
      if (value === undefined || value.startsWith("--")) return undefined
      if (arg === "--write-env") envFile = resolve(value)
      else dataDir = resolve(value)
    } else if (serverNames.includes(arg as ServerName)) names.push(arg as ServerName)
    else return undefined
  }
  return { names, envFile, dataDir }
}

/** Written beside, then renamed: a reader never sees a half-written file. */
const writeAtomically = async (file: string, text: string) => {
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  await writeFile(temporary, text, { mode: 0o600 })
  await rename(temporary, file)
}

const main = async (args: ReadonlyArray<string>) => {
  const parsed = parseArgs(args)
  if (parsed === undefined) {
    console.error(usage)
    process.exitCode = 2
    return
  }
  const infra = await up({
    ...(parsed.names.length > 0 ? { servers: parsed.names } : {}),
    ...(parsed.dataDir === undefined ? {} : { dataDir: parsed.dataDir })
  })
  const failed = infra.outcomes.filter((outcome) => outcome.status === "failed")
  if (failed.length > 0) {
    await down()
    console.error(`[infra] could not start ${failed.map((outcome) => outcome.name).join(", ")}; stopped the others`)
    process.exitCode = 1
    return
  }
  const exports = Object.entries(infra.env).map(([key, value]) => `export ${key}=${shellQuote(value)}\n`).join("")
  process.stdout.write(exports)
  if (parsed.envFile !== undefined) {
    await writeAtomically(parsed.envFile, exports)
    console.error(`[infra] settings written to ${parsed.envFile}`)
  }
  console.error(`[infra] running; Ctrl-C stops the servers${parsed.dataDir === undefined ? " and removes their data" : ` (their data stays in ${parsed.dataDir})`}`)
  await new Promise<void>((resolveSignal) => {
    process.once("SIGINT", resolveSignal)
    process.once("SIGTERM", resolveSignal)
  })
  await down()
  // The file names servers that are gone now.
  if (parsed.envFile !== undefined) await rm(parsed.envFile, { force: true })
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2))
}
