// Idle resident memory: the embedded server on a fresh data dir, and each service of the distributed runtime (the
// gateway and every worker of deploy/services.ts, one process each, on the Kafka, PostgreSQL and MinIO of
// `npm run infra -- up`), BENCH_IDLE_SECONDS (20) after the last of them was healthy. Memory is the resident set
// (VmRSS, /proc, Linux only) summed over the process and every process under it, so a wrapper or a child counts.
//
// Knobs: BENCH_IDLE_SECONDS (20), BENCH_IDLE_TARGETS ("embedded,distributed"); the distributed target needs the
// settings `npm run -s infra -- up --write-env FILE` writes (source FILE first), and BENCH_IDLE_DATABASE_URL, a
// database of its own for the read models (so runs of different commits never meet each other's migrations).
// BENCH_IDLE_FORM: "compiled" (the default, what the distributed runtime runs: `npm run build` first) or "sources"
// (the TypeScript through Node's type stripping); BENCH_IDLE_NODE_OPTIONS: NODE_OPTIONS for the services only.
import { randomBytes } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
// eslint-disable-next-line @nx/enforce-module-boundaries -- the list of services is deploy's, read as data
import { compiledEntryOf, type ServiceDefinition, services } from "../../deploy/services.ts"
import { freePort, repoRoot, startServer } from "../support/server.ts"
import { startWorker } from "../support/worker.ts"

const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 20)
const targets = (process.env.BENCH_IDLE_TARGETS ?? "embedded,distributed").split(",").map((target) => target.trim())
const form = process.env.BENCH_IDLE_FORM ?? "compiled"
const serviceOptions = process.env.BENCH_IDLE_NODE_OPTIONS === undefined ? {} : { NODE_OPTIONS: process.env.BENCH_IDLE_NODE_OPTIONS }

const serviceNamed = (name: string): ServiceDefinition => {
  const service = services.find((candidate) => candidate.name === name)
  if (service === undefined) throw new Error(`deploy/services.ts has no ${name}`)
  return service
}
const entryOf = (name: string) => {
  if (form === "sources") return serviceNamed(name).entry
  const entry = compiledEntryOf(serviceNamed(name))
  if (!existsSync(join(repoRoot, entry))) throw new Error(`${entry} is missing: run \`npm run build\` first (or BENCH_IDLE_FORM=sources)`)
  return entry
}
const workers = services.filter((service) => service.worker !== null).map((service) => service.name)

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms))

const statusKiB = (pid: number, field: string) => {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((entry) => entry.startsWith(`${field}:`))
    return line === undefined ? 0 : Number(line.split(/\s+/)[1])
  } catch {
    return 0
  }
}

const parentOf = (pid: number) => {
  try {
    // The command name may hold spaces and parentheses: the fields after its closing parenthesis are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return -1
  }
}

/** `pid` and every process below it. */
const processTree = (pid: number): ReadonlyArray<number> => {
  const parents = new Map<number, Array<number>>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const child = Number(entry)
    const parent = parentOf(child)
    parents.set(parent, [...(parents.get(parent) ?? []), child])
  }
  const tree = [pid]
  for (let index = 0; index < tree.length; index++) tree.push(...(parents.get(tree[index]!) ?? []))
  return tree
}

const treeMiB = (pid: number) => Math.round(processTree(pid).reduce((sum, member) => sum + statusKiB(member, "VmRSS"), 0) / 1024)

const report = (target: string, service: string, pid: number) => {
  const tree = processTree(pid)
  console.log(JSON.stringify({ bench: "idle-memory", target, ...(target === "distributed" ? { form } : {}), service, processes: tree.length, rssMiB: treeMiB(pid), node: process.version }))
}

const embedded = async () => {
  const server = await startServer({ runtime: "node", readyTimeoutMs: 120_000 })
  try {
    await sleep(idleSeconds * 1000)
    report("embedded", "standalone", server.pid)
  } finally {
    await server.stop("SIGTERM", 60_000)
  }
}

const distributed = async () => {
  for (const name of ["KAFKA_BROKERS", "DATABASE_URL", "S3_ENDPOINT"]) {
    if (process.env[name] === undefined) throw new Error(`the distributed target needs ${name}: source the env of \`npm run -s infra -- up\``)
  }
  const env = {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
    KAFKA_TOPIC_PREFIX: `idle-${Date.now().toString(36)}.`,
    DATABASE_URL: process.env.BENCH_IDLE_DATABASE_URL ?? process.env.DATABASE_URL!,
    S3_ENDPOINT: process.env.S3_ENDPOINT!,
    JWT_SECRET: randomBytes(32).toString("base64url"),
    ...serviceOptions
  }
  const gateway = await startServer({ runtime: "node", entry: entryOf("gateway"), env: { ...env, PORT: String(await freePort()) }, readyTimeoutMs: 120_000 })
  const started: Array<{ readonly name: string; readonly pid: number; readonly stop: (signal?: NodeJS.Signals, timeoutMs?: number) => Promise<unknown> }> = [
    { name: "gateway", pid: gateway.pid, stop: gateway.stop }
  ]
  try {
    for (const name of workers) {
      const worker = await startWorker({ entry: entryOf(name), env: { ...env, GENERATION_INSTANCE_ID: `${name}-idle` } })
      started.push({ name, pid: worker.pid, stop: worker.stop })
    }
    await sleep(idleSeconds * 1000)
    for (const service of started) report("distributed", service.name, service.pid)
    const total = started.reduce((sum, service) => sum + treeMiB(service.pid), 0)
    console.error(`distributed: ${started.length} services, ${total} MiB resident together`)
  } finally {
    await Promise.all(started.map((service) => service.stop("SIGTERM", 60_000)))
  }
}

if (targets.includes("embedded")) await embedded()
if (targets.includes("distributed")) await distributed()
