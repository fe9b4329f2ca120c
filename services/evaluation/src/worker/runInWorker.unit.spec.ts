import { ingestTable, readTable } from "@synth/tabular"
import { tableToIPC } from "apache-arrow"
import { Effect, Exit, Stream } from "effect"
import { describe, expect, it } from "vitest"
import type { EvaluationRequest } from "./protocol.ts"
import { runInWorker, WorkerCrashed } from "./runInWorker.ts"

const ipcOf = (text: string) =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new TextEncoder().encode(text))), ({ table }) => readTable(table))
  ).then((table) => Uint8Array.from(tableToIPC(table, "stream")))

const csv = (rows: number, offset: number) =>
  [
    "group,amount,score,flag",
    ...Array.from({ length: rows }, (_, index) => {
      const i = index + offset
      return [["a", "b", "c", "d"][i % 4], 100 + ((i * 37) % 900), ((i * 13) % 100) / 10, i % 3 === 0].join(",")
    })
  ].join("\n")

const garbage: EvaluationRequest = {
  kind: "quick",
  real: new TextEncoder().encode("this is not an Arrow IPC stream"),
  synthetic: new Uint8Array(),
  holdout: null,
  sampleSize: 10,
  seed: 1,
  mlUtility: null
}

describe("runInWorker", () => {
  it("fails WorkerCrashed when the evaluation code throws a bug", async () => {
    const exit = await Effect.runPromiseExit(runInWorker(garbage, new URL("./testing/throwingWorker.mjs", import.meta.url)))
    expect(exit).toEqual(Exit.fail(new WorkerCrashed({ message: "evaluation code exploded" })))
  })

  it("answers bytes that are not a table with a refusal that names the dataset", async () => {
    const outcome = await Effect.runPromise(runInWorker(garbage))
    expect(outcome).toMatchObject({ kind: "refused", message: expect.stringMatching(/^The real dataset's table could not be read/) })
  }, 30_000)

  it("keeps the event loop free while it runs a full evaluation with ML utility", async () => {
    const request: EvaluationRequest = {
      kind: "run",
      real: await ipcOf(csv(800, 0)),
      synthetic: await ipcOf(csv(800, 7)),
      holdout: await ipcOf(csv(300, 50_000)),
      sampleSize: 800,
      seed: 3,
      mlUtility: { algorithms: ["random_forest"], test_size: 0.2, cross_validation_folds: 2, random_state: 0, target_column: "group" }
    }
    let last = performance.now()
    let longestGap = 0
    const timer = setInterval(() => {
      const now = performance.now()
      longestGap = Math.max(longestGap, now - last)
      last = now
    }, 10)
    const started = performance.now()
    const outcome = await Effect.runPromise(runInWorker(request))
    const took = performance.now() - started
    clearInterval(timer)
    expect(outcome.kind).toBe("done")
    expect(took).toBeGreaterThan(500)
    expect(longestGap).toBeLessThan(250)
  }, 120_000)
})
