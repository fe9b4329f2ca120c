// Time from spawning the standalone runtime to a healthy /health, and from SIGTERM to exit, under Node and Deno.
import { startServer, type Runtime } from "../support/server.ts"

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

for (const runtime of ["node", "deno"] satisfies ReadonlyArray<Runtime>) {
  const ready: Array<number> = []
  const stopped: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const spawned = performance.now()
    const server = await startServer({ runtime })
    ready.push(performance.now() - spawned)
    const signalled = performance.now()
    await server.stop("SIGTERM")
    stopped.push(performance.now() - signalled)
  }
  console.log(
    JSON.stringify({ bench: "startup", runtime, rounds, readyMsMedian: Math.round(median(ready)), stopMsMedian: Math.round(median(stopped)) })
  )
}
