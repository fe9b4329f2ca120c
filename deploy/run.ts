// Runs the distributed runtime as local processes, as deploy/services.ts lists them: it compiles the services first
// (deploy/build.ts, as the image does), then each replica of each service is its own `node dist/services/<name>/main.mjs`,
// the replicas of an HTTP service on `port`, `port + 1`, ... on 127.0.0.1. A
// process that dies is started again after a second, as an orchestrator would; Ctrl-C stops them all. The recipe
// (deploy/README.md):
//   npm run -s infra -- up --data-dir .cache/infra-data --write-env .cache/infra.env   # terminal 1, keeps running
//   . .cache/infra.env && npm run -s distributed                                      # terminal 2
// JWT_SECRET, when not set, is read from .cache/jwt-secret, made once (random, readable by this user only): every
// replica and every restart signs and checks tokens with the same key.
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { buildServices } from "./build.ts"
import { processCommand } from "./manifests.ts"
import { services } from "./services.ts"

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const required = ["KAFKA_BROKERS", "DATABASE_URL", "S3_ENDPOINT", "JWT_SECRET"]
const restartDelayMs = 1_000
const jwtSecretFile = join(repoRoot, ".cache", "jwt-secret")

if ((process.env.JWT_SECRET ?? "") === "") {
  if (!existsSync(jwtSecretFile)) {
    mkdirSync(dirname(jwtSecretFile), { recursive: true })
    writeFileSync(jwtSecretFile, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" })
    console.error(`deploy/run.ts: made a JWT secret in ${jwtSecretFile} (kept for the next runs)`)
  }
  process.env.JWT_SECRET = readFileSync(jwtSecretFile, "utf8").trim()
}

const missing = required.filter((name) => (process.env[name] ?? "") === "")
if (missing.length > 0) {
  console.error(`deploy/run.ts: set ${missing.join(", ")} first (see deploy/README.md)`)
  process.exit(2)
}

// The compiled services, fresh from the sources: a process must never run yesterday's build of today's code.
try {
  await buildServices(services, (line) => console.log(`[build] ${line}`))
} catch (error) {
  console.error(`deploy/run.ts: the services did not compile (deploy/build.ts), so none was started:\n${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}

interface Replica {
  readonly label: string
  readonly command: ReadonlyArray<string>
  readonly env: NodeJS.ProcessEnv
  child?: ChildProcess
}

let stopping = false

const replicas: ReadonlyArray<Replica> = services.flatMap((service) =>
  Array.from({ length: service.replicas }, (_, index) => ({
    label: `${service.name}-${index + 1}`,
    command: processCommand(service),
    env: { ...process.env, ...(service.port === null ? {} : { PORT: String(service.port + index) }) }
  }))
)

const prefixLines = (label: string, stream: NodeJS.ReadableStream | null) => {
  if (stream !== null) createInterface({ input: stream }).on("line", (line) => console.log(`[${label}] ${line}`))
}

const launch = (replica: Replica) => {
  const [command = "node", ...args] = replica.command
  const child = spawn(command === "node" ? process.execPath : command, args, {
    cwd: repoRoot,
    env: replica.env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  replica.child = child
  prefixLines(replica.label, child.stdout)
  prefixLines(replica.label, child.stderr)
  console.log(`[run] ${replica.label}: pid ${child.pid}${replica.env.PORT === undefined ? "" : `, port ${replica.env.PORT}`}`)
  child.once("exit", (code, signal) => {
    if (stopping) return
    console.log(`[run] ${replica.label} exited (${signal ?? `code ${code}`}); starting it again in ${restartDelayMs} ms`)
    setTimeout(() => stopping || launch(replica), restartDelayMs)
  })
}

const stopAll = async () => {
  stopping = true
  await Promise.all(
    replicas.map((replica) =>
      new Promise<void>((resolveExit) => {
        const child = replica.child
        if (child === undefined || child.exitCode !== null || child.signalCode !== null) return resolveExit()
        child.once("exit", () => resolveExit())
        child.kill("SIGTERM")
      })
    )
  )
}

for (const replica of replicas) launch(replica)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopAll().then(() => console.log("[run] every process stopped")))
}
