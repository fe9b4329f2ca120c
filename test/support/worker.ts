import { spawn } from "node:child_process"
import { freePort, childEnv, repoRoot } from "./server.ts"

export interface RunningWorker {
  readonly pid: number
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: string
  readonly stop: (signal?: NodeJS.Signals, timeoutMs?: number) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms))

const healthy = async (url: string) => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
    return response.status === 200
  } catch {
    return false
  }
}

/**
 * Starts a background service (a consumer such as ingest) with the project's Node (its sources as they are, types
 * stripped). It is ready when its /health on PORT
 * answers 200; a worker that serves no HTTP at all is taken as ready once it has stayed up for `settleMs`.
 * Settings are inherited as `startServer` does (infra groups only when `env` names their switch).
 */
export const startWorker = async (options: {
  readonly entry: string
  readonly env: Readonly<Record<string, string>>
  readonly readyTimeoutMs?: number
  readonly settleMs?: number
}): Promise<RunningWorker> => {
  const port = options.env.PORT ?? String(await freePort())
  const env = childEnv({ NO_COLOR: "1", ...options.env, PORT: port })
  const child = spawn(process.execPath, [options.entry], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] })
  const kill = () => child.kill("SIGKILL")
  process.once("exit", kill)
  let output = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      process.removeListener("exit", kill)
      resolve({ code, signal })
    })
  })
  let ended = false
  void exited.then(() => (ended = true))

  const stop = async (signal: NodeJS.Signals = "SIGTERM", timeoutMs = 15_000) => {
    if (!ended) child.kill(signal)
    const outcome = await Promise.race([exited, sleep(timeoutMs).then(() => undefined)])
    if (outcome !== undefined) return outcome
    child.kill("SIGKILL")
    return exited
  }

  const started = Date.now()
  const deadline = started + (options.readyTimeoutMs ?? 90_000)
  while (!(await healthy(`http://127.0.0.1:${port}/health`))) {
    if (ended) throw new Error(`${options.entry} exited (${JSON.stringify(await exited)}) before it was ready; output:\n${output}`)
    if (Date.now() - started > (options.settleMs ?? 15_000)) break
    if (Date.now() > deadline) {
      await stop("SIGKILL")
      throw new Error(`${options.entry} was not ready within ${options.readyTimeoutMs ?? 90_000} ms; output:\n${output}`)
    }
    await sleep(250)
  }
  return {
    pid: child.pid ?? -1,
    get output() {
      return output
    },
    stop
  }
}
