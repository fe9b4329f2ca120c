import {
  GeneratorUnavailable,
  loadModel,
  NothingToLearn,
  type SynthTable,
  synthTableFromArrow,
  synthTableToIpc,
  type TrainedModel,
  type TrainingRefused,
  trainModel,
  type WidthColumn
} from "@synth/synth"
import { tableFromIPC } from "apache-arrow"
import { Either } from "effect"
import { parentPort, workerData } from "node:worker_threads"
import type { JobRequest, OutputColumn, WorkerMessage } from "./protocol.ts"

/**
 * The worker thread of one generation job: it starts with one JobRequest (its workerData), posts progress, and ends with `done` or
 * `refused`. A bug (an exception) is left to crash the thread: the parent sees the error event and fails the job.
 */
const port = parentPort
if (port === null) throw new Error("jobWorker.ts runs as a worker thread only")

const post = (message: WorkerMessage, transfer: ReadonlyArray<ArrayBuffer> = []) =>
  port.postMessage(message, transfer as Array<ArrayBuffer>)

/** Progress reports are cheap here; the parent throttles what it turns into events. */
const reportEvery = (phase: "fitting" | "sampling", total: number) => (done: number) =>
  post({ kind: "progress", phase, fraction: total === 0 ? 1 : Math.min(1, done / total) })

const widthColumns = (table: SynthTable): Array<WidthColumn> =>
  table.columns.map((column) =>
    column.kind === "continuous"
      ? { kind: "continuous", hasMissing: column.missing !== null }
      : { kind: "categorical", categories: column.categories.length }
  )

const outputColumns = (table: SynthTable): Array<OutputColumn> =>
  table.columns.map((column) => ({
    name: column.name,
    type: column.type,
    missingCount: column.kind === "continuous"
      ? (column.missing?.reduce((count, flag) => count + flag, 0) ?? 0)
      : column.codes.reduce((count, code) => count + (code < 0 ? 1 : 0), 0),
    sourceFormat: column.kind === "continuous" ? column.sourceFormat : null
  }))

const finish = (trained: TrainedModel | null, sampled: SynthTable, fitMs: number, sampleMs: number) => {
  const table = synthTableToIpc(sampled)
  const artifact = trained === null ? null : new TextEncoder().encode(JSON.stringify(trained.toJSON()))
  const model = trained === null
    ? null
    : { format: trained.format, formatVersion: trained.formatVersion, privacy: trained.privacy ?? null }
  const transfer = [table.buffer as ArrayBuffer, ...(artifact === null ? [] : [artifact.buffer as ArrayBuffer])]
  post(
    { kind: "done", artifact, model, table, rowCount: sampled.rowCount, columns: outputColumns(sampled), fitMs, sampleMs },
    transfer
  )
}

const refusalMessage = (error: GeneratorUnavailable | NothingToLearn | TrainingRefused) => {
  switch (error._tag) {
    case "NothingToLearn":
      return `The dataset gives the model nothing to learn from: ${error.message}`
    case "TrainingRefused":
      return `The training cannot be done as asked: ${error.message}`
    case "GeneratorUnavailable":
      return `${error.generator} cannot be trained by this version of the service.`
  }
}

const train = async (request: Extract<JobRequest, { kind: "train" }>) => {
  const decoded = synthTableFromArrow(tableFromIPC(request.table))
  if (Either.isLeft(decoded)) return post({ kind: "refused", message: decoded.left.message })
  const table = decoded.right
  if (table.rowCount === 0) return post({ kind: "refused", message: "The dataset has no rows to learn from." })
  post({ kind: "loaded", trainingRows: table.rowCount, columns: widthColumns(table) })
  const fitStarted = performance.now()
  const trained = await trainModel(request.generator, table, {
    ...request.parameters,
    onFitProgress: (fraction) => post({ kind: "progress", phase: "fitting", fraction }),
    onEpoch: (epoch, losses) => post({ kind: "epoch", epoch, losses })
  })
  if (Either.isLeft(trained)) {
    return post({ kind: "refused", message: refusalMessage(trained.left) })
  }
  const fitMs = performance.now() - fitStarted
  const sampleStarted = performance.now()
  const sampled = trained.right.sample(request.numRows, request.parameters.seed, reportEvery("sampling", request.numRows))
  finish(trained.right, sampled, fitMs, performance.now() - sampleStarted)
}

const sample = async (request: Extract<JobRequest, { kind: "sample" }>) => {
  const model = await loadModel(JSON.parse(new TextDecoder().decode(request.artifact)))
  if (Either.isLeft(model)) return post({ kind: "refused", message: `The stored model cannot be read: ${model.left.message}` })
  const started = performance.now()
  const sampled = model.right.sample(request.numRows, request.seed, reportEvery("sampling", request.numRows))
  finish(null, sampled, 0, performance.now() - started)
}

// A rejection (a bug) is rethrown outside the promise so that it crashes the thread as a synchronous throw would.
const request = workerData as JobRequest
void (request.kind === "train" ? train(request) : sample(request)).catch((error: unknown) =>
  setImmediate(() => {
    throw error
  })
)
