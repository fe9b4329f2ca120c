// Time from spawning the standalone runtime to a healthy /health, and from SIGTERM to exit, under Node and Deno,
// on a fresh data dir (nothing there: secrets generated, databases created and migrated) and on a warm one (a data
// dir a previous run of the same runtime created and filled with a few accounts).
//
// Knobs: BENCH_ROUNDS (3), BENCH_RUNTIMES ("node,deno"), BENCH_USERS (accounts in the warm data dir, 20).
// Readiness is polled every 200 ms (test/support/server.ts), so ready times are that coarse.
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { goodPassword, http } from "../support/http.ts"
import { type Runtime, startServer } from "../support/server.ts"

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const users = Number(process.env.BENCH_USERS ?? 20)
const runtimes = (process.env.BENCH_RUNTIMES ?? "node,deno").split(",").map((name) => name.trim()) as Array<Runtime>

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

const measure = async (runtime: Runtime, env: Record<string, string> | undefined) => {
  const ready: Array<number> = []
  const stopped: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const spawned = performance.now()
    const server = await startServer({ runtime, ...(env === undefined ? {} : { env }) })
    ready.push(performance.now() - spawned)
    const signalled = performance.now()
    const exit = await server.stop("SIGTERM")
    stopped.push(performance.now() - signalled)
    if (exit.code !== 0) throw new Error(`${runtime} exited with ${JSON.stringify(exit)} on SIGTERM:\n${server.output}`)
  }
  return {
    rounds,
    readyMsMedian: Math.round(median(ready)),
    readyMsMin: Math.round(Math.min(...ready)),
    readyMsMax: Math.round(Math.max(...ready)),
    stopMsMedian: Math.round(median(stopped))
  }
}

/** A data dir this runtime has already started on, holding `users` accounts (and their logins). */
const warmDataDir = async (runtime: Runtime) => {
  const dataDir = await mkdtemp(join(tmpdir(), `synth-bench-warm-${runtime}-`))
  const server = await startServer({ runtime, env: { DATA_DIR: dataDir, AUTH_RATE_LIMIT_PER_MINUTE: "100000" } })
  try {
    for (let index = 0; index < users; index++) {
      const email = `bench-${index}@example.com`
      const registered = await http(`${server.baseUrl}/auth/register`, { body: { email, password: goodPassword } })
      if (registered.status !== 201) throw new Error(`registration failed: ${registered.status} ${registered.text}`)
      const login = await http(`${server.baseUrl}/auth/login`, { body: { email, password: goodPassword } })
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`)
    }
  } finally {
    await server.stop("SIGTERM")
  }
  return dataDir
}

for (const runtime of runtimes) {
  console.error(`${runtime}: ${rounds} starts on fresh data dirs`)
  console.log(JSON.stringify({ bench: "startup", runtime, dataDir: "fresh", ...(await measure(runtime, undefined)) }))

  console.error(`${runtime}: seeding a data dir with ${users} accounts, then ${rounds} starts on it`)
  const dataDir = await warmDataDir(runtime)
  try {
    console.log(
      JSON.stringify({ bench: "startup", runtime, dataDir: "warm", users, ...(await measure(runtime, { DATA_DIR: dataDir })) })
    )
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}
