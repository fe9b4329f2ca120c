import { spawn } from "node:child_process"
import { join } from "node:path"
import { childEnv, repoRoot } from "./server.ts"

export interface CliResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
  /** stdout and stderr interleaved as they arrived. */
  readonly output: string
  readonly durationMs: number
}

export interface RunSynthOptions {
  /** Added to the parent's environment (DATA_DIR above all). */
  readonly env?: Readonly<Record<string, string>>
  /** Names removed from the inherited environment. */
  readonly unsetEnv?: ReadonlyArray<string>
  /** As in `startServer`: by default DATABASE_URL, KAFKA_* and S3_* are inherited only when `env` names them. */
  readonly inheritInfra?: boolean
  /** SIGKILLs the command after this long and rejects. */
  readonly timeoutMs?: number
  /** The directory it runs in (the repository root by default), for commands that write where they are run. */
  readonly cwd?: string
}

/** Runs `node bin/synth.mjs <args>` (the `synth` command as npm installs it) to completion. */
export const runSynth = (args: ReadonlyArray<string>, options: RunSynthOptions = {}): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const env = childEnv({ NO_COLOR: "1", ...options.env }, options)
    const started = performance.now()
    const child = spawn(process.execPath, [join(repoRoot, "bin", "synth.mjs"), ...args], {
      cwd: options.cwd ?? repoRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    let output = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      output += chunk
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
      output += chunk
    })
    const timeoutMs = options.timeoutMs ?? 60_000
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`synth ${args.join(" ")} ran longer than ${timeoutMs} ms; output:\n${output}`))
    }, timeoutMs)
    child.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once("close", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr, output, durationMs: performance.now() - started })
    })
  })
