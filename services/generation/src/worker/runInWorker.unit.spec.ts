import { ingestTable, readTable } from "@synth/tabular"
import { type Table, tableFromIPC, tableToIPC } from "apache-arrow"
import { Deferred, Effect, Exit, Fiber, Result, Stream } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import type { JobRequest } from "./protocol.ts"
import { type Outcome, type Report, runInWorker, WorkerCrashed } from "./runInWorker.ts"

const csv = [
  "age,income,city,member",
  ...Array.from({ length: 60 }, (_, i) =>
    [20 + ((i * 7) % 45), i % 9 === 0 ? "" : (1_000 + ((i * 131) % 900)).toFixed(2), ["Lyon", "Oslo", "Lima"][i % 3], i % 4 === 0].join(","))
].join("\n")

const ingest = (text: string) =>
  Effect.runPromise(Effect.flatMap(ingestTable(() => Stream.make(new TextEncoder().encode(text))), ({ table }) => readTable(table)))

let trainingTable: Table
let training: { readonly outcome: Outcome; readonly reports: ReadonlyArray<Report> }

/** Fresh bytes each time: runInWorker transfers the buffer, which leaves the caller's copy empty. */
const ipcOf = (table: Table) => Uint8Array.from(tableToIPC(table, "stream"))

const parameters = { seed: 1234, epochs: null, batchSize: null, targetEpsilon: null, threads: 1 as const }

/** A stored scan that found nothing: every column is learned as data. */
const nothingFound = { kind: "basic" as const, result: { findings: [], identifiers: [], quasi_identifiers: [] } }
const protection = { rareCategoryThreshold: 5, valueProtection: true, rareCategoryProtection: true, similarityFilter: true, holdoutShare: 0.1 }
const protectedJob = { scan: nothingFound, overrides: {}, protection }

const train = (generator: Extract<JobRequest, { kind: "train" }>["generator"], table: Table, numRows: number): JobRequest => ({
  kind: "train",
  generator,
  table: ipcOf(table),
  parameters,
  numRows,
  ...protectedJob
})

const run = async (request: JobRequest, entry?: URL) => {
  const reports: Array<Report> = []
  const outcome = await Effect.runPromise(runInWorker(request, (report) => reports.push(report), entry))
  return { outcome, reports }
}

const done = (outcome: Outcome) => {
  if (outcome.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(outcome)}`)
  return outcome
}

/** Every column's values, for comparing two decoded tables. */
const valuesOf = (ipc: Uint8Array) => {
  const table = tableFromIPC(ipc)
  return table.schema.fields.map((field) => [field.name, Array.from(table.getChild(field.name)!.toArray() as ArrayLike<unknown>)])
}

/** What training the copula answered; the bytes are copied out so each test can transfer them again. */
const trained = () => done(training.outcome)
const trainedArtifact = () => Uint8Array.from(trained().artifact!)
const trainedFilters = () => Uint8Array.from(trained().filters!)

beforeAll(async () => {
  trainingTable = await ingest(csv)
  training = await run(train("gaussian_copula", trainingTable, 150))
}, 60_000)

describe("runInWorker", () => {
  it("trains a Gaussian copula in a worker thread and answers with the sampled table and the model", () => {
    const { outcome, reports } = training
    expect(outcome.kind).toBe("done")
    const answer = done(outcome)
    expect(answer.rowCount).toBe(150)
    expect(answer.columns.map((column) => [column.name, column.type])).toEqual([
      ["age", "integer"],
      ["income", "float"],
      ["city", "string"],
      ["member", "boolean"]
    ])
    expect(answer.columns.find((column) => column.name === "age")?.missingCount).toBe(0)
    const table = tableFromIPC(answer.table)
    expect(table.numRows).toBe(150)
    expect(table.schema.fields.map((field) => field.name)).toEqual(["age", "income", "city", "member"])
    expect(answer.model).toEqual({ format: "synth.gaussian-copula", formatVersion: 1, privacy: null })
    const artifact = JSON.parse(new TextDecoder().decode(answer.artifact!)) as {
      format: string
      model: { format: string; trainedRows: number }
    }
    expect(artifact.format).toBe("synth.protected")
    expect(artifact.model.format).toBe("synth.gaussian-copula")
    expect(artifact.model.trainedRows).toBe(54)
    expect(answer.fitMs).toBeGreaterThanOrEqual(0)
    expect(answer.filters).not.toBeNull()
    expect(answer.protection).toMatchObject({ rareCategoryRows: 0, copiesKept: 0 })

    expect(reports.find((report) => report.kind === "prepared")).toEqual({
      kind: "prepared",
      scan: "basic",
      columns: ["age", "income", "city", "member"].map((name) => ({ name, role: "data", handling: "keep", piiType: null })),
      trainingRows: 54,
      holdoutRows: 6
    })
    const loaded = reports.find((report) => report.kind === "loaded")
    expect(loaded).toEqual({
      kind: "loaded",
      trainingRows: 54,
      columns: [
        { kind: "continuous", hasMissing: false },
        { kind: "continuous", hasMissing: true },
        { kind: "categorical", categories: 3 },
        { kind: "categorical", categories: 2 }
      ]
    })
    expect(reports.filter((report) => report.kind === "progress" && report.phase === "fitting").map((report) => report.kind === "progress" && report.fraction)).toEqual([0, 1])
    expect(reports.at(-1)).toEqual({ kind: "progress", phase: "sampling", fraction: 1 })
    expect(reports.map((report) => report.kind === "progress" ? report.phase : report.kind).filter((kind, i, all) => kind !== all[i - 1])).toEqual([
      "prepared",
      "loaded",
      "fitting",
      "sampling"
    ])
  })

  it("samples the stored model with the same seed into the same table", async () => {
    const { outcome, reports } = await run({ kind: "sample", artifact: trainedArtifact(), filters: trainedFilters(), numRows: 150, seed: parameters.seed })
    const sampled = done(outcome)
    expect(sampled.artifact).toBeNull()
    expect(sampled.model).toBeNull()
    expect(sampled.fitMs).toBe(0)
    expect(sampled.rowCount).toBe(150)
    expect(sampled.columns).toEqual(trained().columns)
    const trainedValues = valuesOf(trained().table)
    expect(trainedValues[0]![1]).toHaveLength(150)
    expect(valuesOf(sampled.table)).toEqual(trainedValues)
    expect(reports.every((report) => report.kind === "progress" && report.phase === "sampling")).toBe(true)

    const other = done((await run({ kind: "sample", artifact: trainedArtifact(), filters: trainedFilters(), numRows: 150, seed: 1 })).outcome)
    expect(valuesOf(other.table)).not.toEqual(trainedValues)
  }, 60_000)

  it("refuses an artifact it cannot read", async () => {
    const { outcome } = await run({ kind: "sample", artifact: new TextEncoder().encode('{"format":"synth.gan"}'), filters: null, numRows: 5, seed: 1 })
    expect(outcome.kind).toBe("refused")
    expect(outcome.kind === "refused" && outcome.message).toMatch(/^The stored model cannot be read: unknown model artifact format "synth.gan"/)
  }, 60_000)

  it("refuses a table without rows", async () => {
    const { outcome, reports } = await run(train("gaussian_copula", trainingTable.slice(0, 0), 10))
    expect(outcome).toEqual({ kind: "refused", message: "The dataset has no rows to learn from." })
    expect(reports).toEqual([])
  }, 60_000)

  // The neural models load tfjs's wasm backend inside the thread; this is the path every ctgan/tvae job takes.
  it("trains TVAE in a worker thread: epochs reported, the model stored, and sampled again from the artifact", async () => {
    const request: JobRequest = {
      kind: "train",
      generator: "tvae",
      table: ipcOf(trainingTable),
      parameters: { seed: 5, epochs: 3, batchSize: 20, targetEpsilon: null, threads: 1 },
      numRows: 40,
      ...protectedJob
    }
    const { outcome, reports } = await run(request)
    const answer = done(outcome)
    expect(answer.model).toEqual({ format: "synth.tvae", formatVersion: 1, privacy: null })
    expect(answer.rowCount).toBe(40)
    expect(answer.columns.map((column) => column.name)).toEqual(["age", "income", "city", "member"])
    const epochs = reports.filter((report) => report.kind === "epoch")
    expect(epochs.map((report) => report.kind === "epoch" && report.epoch)).toEqual([1, 2, 3])
    expect(epochs.every((report) => report.kind === "epoch" && Number.isFinite(report.losses["loss"]))).toBe(true)
    const again = done((await run({ kind: "sample", artifact: Uint8Array.from(answer.artifact!), filters: Uint8Array.from(answer.filters!), numRows: 40, seed: 5 })).outcome)
    expect(valuesOf(again.table)).toEqual(valuesOf(answer.table))
  }, 120_000)

  // A data-parallel training starts its peer thread from inside the job's thread, and checks the replicas at the end.
  it("trains CTGAN on two threads from a worker thread", async () => {
    const request: JobRequest = {
      kind: "train",
      generator: "ctgan",
      table: ipcOf(trainingTable),
      parameters: { seed: 5, epochs: 2, batchSize: 20, targetEpsilon: null, threads: 2 },
      numRows: 30,
      ...protectedJob
    }
    const { outcome, reports } = await run(request)
    const answer = done(outcome)
    expect(answer.model).toEqual({ format: "synth.ctgan", formatVersion: 1, privacy: null })
    expect(answer.rowCount).toBe(30)
    const epochs = reports.filter((report) => report.kind === "epoch")
    expect(epochs.map((report) => report.kind === "epoch" && report.epoch)).toEqual([1, 2])
  }, 120_000)

  it("fails with WorkerCrashed when the job code throws", async () => {
    const entry = new URL("./testing/throwingWorker.mjs", import.meta.url)
    const exit = await Effect.runPromiseExit(runInWorker(train("gaussian_copula", trainingTable, 10), () => undefined, entry))
    expect(exit).toStrictEqual(Exit.fail(new WorkerCrashed({ message: "model code exploded" })))
  }, 60_000)

  // The request's bytes are copied to the thread, not transferred: a second run of the same effect (Effect.retry, or
  // the same request run twice) must find them intact rather than post a detached buffer the thread waits on forever.
  it("answers when the same request is run a second time", async () => {
    const job = runInWorker({ kind: "sample", artifact: trainedArtifact(), filters: trainedFilters(), numRows: 5, seed: 1 }, () => undefined)
    expect(done(await Effect.runPromise(job)).rowCount).toBe(5)
    const again = await Effect.runPromise(Effect.timeout(job, "20 seconds"))
    expect(done(again).rowCount).toBe(5)
  }, 60_000)

  it("stops a running job at once when interrupted, without waiting for it", async () => {
    const artifact = trainedArtifact()
    let reportsAfterInterrupt = -1
    const timings = await Effect.runPromise(
      Effect.gen(function* () {
        const sampling = yield* Deferred.make<void>()
        const onReport = () => {
          reportsAfterInterrupt += reportsAfterInterrupt >= 0 ? 1 : 0
          Deferred.doneUnsafe(sampling, Effect.void)
        }
        const fiber = yield* Effect.forkChild(runInWorker({ kind: "sample", artifact, filters: null, numRows: 5_000_000, seed: 3 }, onReport))
        // The job is under way once it reports its first sampled block.
        const started = yield* Effect.result(Effect.timeout(Deferred.await(sampling), "20 seconds"))
        yield* Effect.sleep("300 millis")
        const interruptedAt = Date.now()
        yield* Fiber.interrupt(fiber)
        const stopMs = Date.now() - interruptedAt
        const exit = yield* Fiber.await(fiber)
        reportsAfterInterrupt = 0
        // A thread still sampling would go on posting a progress report per block.
        yield* Effect.sleep("500 millis")
        return { started, exit, stopMs }
      })
    )
    expect(Result.isSuccess(timings.started)).toBe(true)
    expect(Exit.hasInterrupts(timings.exit)).toBe(true)
    expect(timings.stopMs).toBeLessThan(2_000)
    expect(reportsAfterInterrupt).toBe(0)
  }, 60_000)
})
