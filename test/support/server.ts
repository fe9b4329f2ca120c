import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

export type Runtime = "node" | "deno"

export interface StartServerOptions {
  readonly runtime: Runtime
  /**
   * Added to the parent's environment (see `inheritInfra`). PORT defaults to a free port, DATA_DIR to a fresh temp
   * dir removed on stop.
   */
  readonly env?: Readonly<Record<string, string>>
  /** Names removed from the inherited environment (e.g. JWT_SECRET, to make the runtime generate its own). */
  readonly unsetEnv?: ReadonlyArray<string>
  /**
   * Whether the runtime may inherit the test servers' settings (DATABASE_URL, KAFKA_*, S3_*) that the int/e2e
   * global setup puts into every worker's environment. By default a group is inherited only when `env` names its
   * switch (DATABASE_URL, KAFKA_BROKERS, S3_ENDPOINT), so a runtime started without them stays fully embedded.
   */
  readonly inheritInfra?: boolean
  /** Entry module, relative to the repository root. */
  readonly entry?: string
  /** Arguments after the entry module, e.g. `["serve"]` with `entry: "bin/synth.mjs"`. */
  readonly args?: ReadonlyArray<string>
  /** How long to wait for GET /health to answer 200 with `{"status":"healthy"}`. */
  readonly readyTimeoutMs?: number
}

export interface ServerExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface RunningServer {
  readonly baseUrl: string
  readonly pid: number
  readonly dataDir: string
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: string
  /** Sends `signal` (SIGTERM by default) and waits for the exit; SIGKILLs after `timeoutMs` and reports it. */
  readonly stop: (signal?: NodeJS.Signals, timeoutMs?: number) => Promise<ServerExit>
}

const defaultEntry = "services/standalone/src/main.ts"

const running = new Set<ChildProcess>()
// A crashed or interrupted test run must not leave servers holding ports and data dirs.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL")
})

export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port"))))
    })
  })

/** The Deno executable from the `deno` npm package (its bin entry is a Node wrapper that does not forward signals). */
export const denoExecutable = (): string => {
  const require = createRequire(import.meta.url)
  const packageDir = dirname(require.resolve("deno/package.json"))
  const executable = join(packageDir, process.platform === "win32" ? "deno.exe" : "deno")
  if (existsSync(executable)) return executable
  const installer = require(join(packageDir, "install_api.cjs")) as { runInstall: () => string }
  return installer.runInstall()
}

const commandFor = (
  runtime: Runtime,
  entry: string,
  args: ReadonlyArray<string> = []
): readonly [string, ReadonlyArray<string>] =>
  runtime === "node"
    ? [process.execPath, [entry, ...args]]
    : [denoExecutable(), ["run", "--allow-all", "--node-modules-dir=manual", "--no-lock", entry, ...args]]

const exitOf = (child: ChildProcess): Promise<ServerExit> =>
  new Promise((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null) resolveExit({ code: child.exitCode, signal: child.signalCode })
    child.once("exit", (code, signal) => resolveExit({ code, signal }))
    // A command that cannot start emits "error" and never "exit".
    child.once("error", () => resolveExit({ code: child.exitCode, signal: child.signalCode }))
  })

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms))

const isHealthy = async (baseUrl: string): Promise<boolean> => {
  try {
    const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) })
    if (response.status !== 200) return false
    const body = (await response.json()) as { readonly status?: unknown }
    return body.status === "healthy"
  } catch {
    return false
  }
}

/** Settings of the shared test servers, by the variable whose presence switches a runtime over to them. */
const infraGroups: ReadonlyArray<readonly [switchName: string, inherited: (name: string) => boolean]> = [
  ["DATABASE_URL", (name) => name === "DATABASE_URL"],
  ["KAFKA_BROKERS", (name) => name.startsWith("KAFKA_")],
  ["S3_ENDPOINT", (name) => name.startsWith("S3_")]
]

/**
 * The environment of a child process: the parent's, plus `given`, minus `unsetEnv`. Unless `inheritInfra`, an
 * inherited group of infra settings is dropped when `given` does not name its switch: an embedded runtime must not
 * find the shared PostgreSQL, Kafka or MinIO of the test run (it would share read models with every other test).
 */
export const childEnv = (
  given: Readonly<Record<string, string>> = {},
  options: { readonly unsetEnv?: ReadonlyArray<string> | undefined; readonly inheritInfra?: boolean | undefined } = {}
): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  if (options.inheritInfra !== true) {
    for (const [switchName, inherited] of infraGroups) {
      if (given[switchName] !== undefined) continue
      for (const name of Object.keys(env)) if (inherited(name)) delete env[name]
    }
  }
  Object.assign(env, given)
  for (const name of options.unsetEnv ?? []) delete env[name]
  return env
}

/** A server that lost its port between freePort() and listen (another process bound it meanwhile) is started again. */
class PortTaken extends Error {}

export const startServer = async (options: StartServerOptions): Promise<RunningServer> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options)
    } catch (error) {
      // Only a port this helper picked can be picked again; three tries, then the error stands.
      if (!(error instanceof PortTaken) || options.env?.PORT !== undefined || attempt === 3) throw error
    }
  }
}

const startServerOnce = async (options: StartServerOptions): Promise<RunningServer> => {
  const port = options.env?.PORT ?? String(await freePort())
  const ownsDataDir = options.env?.DATA_DIR === undefined
  const dataDir = options.env?.DATA_DIR ?? (await mkdtemp(join(tmpdir(), "synth-e2e-")))
  const [command, args] = commandFor(options.runtime, options.entry ?? defaultEntry, options.args)
  const env = childEnv(
    { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...options.env, PORT: port, DATA_DIR: dataDir },
    { unsetEnv: options.unsetEnv, inheritInfra: options.inheritInfra }
  )
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] })
  running.add(child)
  let output = ""
  child.once("error", (error) => (output += `[could not run ${command}: ${error.message}]\n`))
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  const exited = exitOf(child).finally(() => running.delete(child))
  const cleanUp = () => (ownsDataDir ? rm(dataDir, { recursive: true, force: true }) : Promise.resolve())

  const stop = async (signal: NodeJS.Signals = "SIGTERM", timeoutMs = 15_000): Promise<ServerExit> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    const outcome = await Promise.race([exited, sleep(timeoutMs).then(() => "timeout" as const)])
    if (outcome !== "timeout") {
      await cleanUp()
      return outcome
    }
    child.kill("SIGKILL")
    await exited
    await cleanUp()
    throw new Error(`${options.runtime} server ignored ${signal} for ${timeoutMs} ms and was killed; output:\n${output}`)
  }

  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000)
  let processEnded = false
  void exited.then(() => (processEnded = true))
  while (!(await isHealthy(baseUrl))) {
    if (processEnded) {
      await cleanUp()
      const { code, signal } = await exited
      const failure = `${options.runtime} server exited (code ${code}, signal ${signal}) before it was healthy; output:\n${output}`
      throw output.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`) ? new PortTaken(failure) : new Error(failure)
    }
    if (Date.now() > deadline) {
      await stop("SIGKILL").catch(() => undefined)
      throw new Error(`${options.runtime} server was not healthy at ${baseUrl}/health within ${options.readyTimeoutMs ?? 60_000} ms; output:\n${output}`)
    }
    await sleep(200)
  }

  return {
    baseUrl,
    pid: child.pid ?? -1,
    dataDir,
    get output() {
      return output
    },
    stop
  }
}
