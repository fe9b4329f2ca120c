import { afterEach, describe, expect, it } from "vitest"
import type { EchoMessage, EchoRequest } from "./testing/echoWorker.ts"
import { type PoolOptions, WorkerPool } from "./WorkerPool.ts"

const entry = new URL("./testing/echoWorker.ts", import.meta.url)
const pools: Array<WorkerPool> = []
const poolOf = (options: Partial<PoolOptions> = {}) => {
  const pool = new WorkerPool(entry, { maxIdle: 2, idleMs: 10_000, maxJobsPerThread: 100, ...options })
  pools.push(pool)
  return pool
}
afterEach(() => Promise.all(pools.splice(0).map((pool) => pool.close())))

type Outcome = { readonly final: EchoMessage; readonly reports: ReadonlyArray<EchoMessage> } | { readonly crashed: string }

const runJob = (pool: WorkerPool, request: EchoRequest) =>
  new Promise<Outcome>((resolve) => {
    const reports: Array<EchoMessage> = []
    pool.run<EchoRequest, EchoMessage>(request, {
      onReport: (message) => reports.push(message),
      onFinal: (final) => resolve({ final, reports }),
      onCrash: (crashed) => resolve({ crashed })
    })
  })

const threadOf = (outcome: Outcome) => {
  if (!("final" in outcome) || outcome.final.kind !== "done") throw new Error(`no final message: ${JSON.stringify(outcome)}`)
  return outcome.final
}

describe("WorkerPool", () => {
  it("passes a job's reports on in order, then its final message", async () => {
    const outcome = await runJob(poolOf(), { kind: "echo", reports: 3 })
    expect("final" in outcome && outcome.reports).toEqual([0, 1, 2].map((index) => ({ kind: "report", index })))
    expect(threadOf(outcome).served).toBe(1)
  }, 20_000)

  it("runs the next job on the warm thread", async () => {
    const pool = poolOf()
    const first = threadOf(await runJob(pool, { kind: "echo", reports: 0 }))
    expect(pool.idleThreads).toBe(1)
    const second = threadOf(await runJob(pool, { kind: "echo", reports: 0 }))
    expect(second.threadId).toBe(first.threadId)
    expect(second.served).toBe(2)
  }, 20_000)

  it("runs concurrent jobs on separate threads and keeps at most maxIdle of them", async () => {
    const pool = poolOf({ maxIdle: 1 })
    const outcomes = await Promise.all([1, 2, 3].map(() => runJob(pool, { kind: "echo", reports: 1 })))
    expect(new Set(outcomes.map((outcome) => threadOf(outcome).threadId)).size).toBe(3)
    expect(pool.idleThreads).toBe(1)
  }, 30_000)

  it("ends a thread its job declares not reusable", async () => {
    const pool = poolOf()
    const first = threadOf(await runJob(pool, { kind: "echo", reports: 0, reusable: false }))
    expect(pool.idleThreads).toBe(0)
    expect(threadOf(await runJob(pool, { kind: "echo", reports: 0 })).threadId).not.toBe(first.threadId)
  }, 20_000)

  it("ends a thread after maxJobsPerThread jobs", async () => {
    const pool = poolOf({ maxJobsPerThread: 2 })
    const served = []
    for (let job = 0; job < 3; job++) served.push(threadOf(await runJob(pool, { kind: "echo", reports: 0 })).served)
    expect(served).toEqual([1, 2, 1])
  }, 30_000)

  it("reports a crash of the job's code, and the next job gets a new thread", async () => {
    const pool = poolOf()
    const crashed = await runJob(pool, { kind: "crash" })
    expect(crashed).toEqual({ crashed: expect.stringContaining("the job's code failed") })
    expect(pool.idleThreads).toBe(0)
    expect(threadOf(await runJob(pool, { kind: "echo", reports: 0 })).served).toBe(1)
  }, 20_000)

  it("cancelling ends the thread at once, without a word to the job's callbacks", async () => {
    const pool = poolOf()
    let heard = false
    const cancel = pool.run<EchoRequest, EchoMessage>({ kind: "hang" }, {
      onReport: () => (heard = true),
      onFinal: () => (heard = true),
      onCrash: () => (heard = true)
    })
    await new Promise((wait) => setTimeout(wait, 500))
    cancel()
    await new Promise((wait) => setTimeout(wait, 500))
    expect(heard).toBe(false)
    expect(pool.idleThreads).toBe(0)
  }, 20_000)

  it("ends an idle thread after idleMs", async () => {
    const pool = poolOf({ idleMs: 200 })
    await runJob(pool, { kind: "echo", reports: 0 })
    expect(pool.idleThreads).toBe(1)
    await new Promise((wait) => setTimeout(wait, 600))
    expect(pool.idleThreads).toBe(0)
  }, 20_000)
})
