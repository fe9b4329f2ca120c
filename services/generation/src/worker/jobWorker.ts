import { sampleScanInput, scanColumns } from "@synth/pii"
import {
  decodeProtectedArtifact,
  defaultFakers,
  filtersFromJSON,
  filtersToJSON,
  isProtectedArtifact,
  prepareTraining,
  type PreparedTraining,
  protectedArtifact,
  sampleWithRules
} from "@synth/protect"
import {
  constrainedArtifact,
  constrainedModel,
  drawAccepted,
  fitConstraintTransforms,
  fixedCombinationGroups,
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
import { type Table, tableFromIPC } from "apache-arrow"
import { Result } from "effect"
import { type Post, serveJobs } from "@synth/threads/worker"
import { loadStoredModel, preparedRules, rulesUnmet, samplingRules, trainingRules, unprotectedSamplingRules } from "./jobRules.ts"
import type { JobRequest, OutputColumn, WorkerMessage } from "./protocol.ts"

/**
 * A pooled generation thread: each job is one JobRequest; it posts progress and ends with `done` or `refused`. A bug
 * (an exception) is left to crash the thread: the pool sees the error event and the job fails.
 */

/** The running job's channel to its caller. serveJobs runs one job at a time in a thread, so there is one at a time. */
let channel: Post<WorkerMessage> | null = null
const post: Post<WorkerMessage> = (message, transfer) => {
  if (channel === null) throw new Error("a generation job posted after it ended")
  channel(message, transfer)
}

/**
 * Whether a neural model (TensorFlow.js on WebAssembly) ran in this thread. WebAssembly memory only grows, so such a
 * thread keeps its training's peak for as long as it lives: it ends with its job instead of waiting for the next.
 */
let ranNeuralModel = false
const isNeural = (format: string) => format !== "synth.gaussian-copula"

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
    sourceFormat: column.kind === "continuous" ? column.sourceFormat : (table.form?.columns[column.name]?.["synth.sourceFormat"] ?? null)
  }))

interface Finished {
  readonly artifact: unknown | null
  /** The inner model's format (what the record shows); null when nothing was learned. */
  readonly trained: TrainedModel | null
  readonly sampled: SynthTable
  readonly filters: PreparedTraining["filters"] | null
  readonly protection: Extract<WorkerMessage, { kind: "done" }>["protection"]
  readonly fitMs: number
  readonly sampleMs: number
}

const finish = (done: Finished) => {
  const table = synthTableToIpc(done.sampled)
  const encode = (json: unknown) => new TextEncoder().encode(JSON.stringify(json))
  const artifact = done.artifact === null ? null : encode(done.artifact)
  const filters = done.filters === null ? null : encode(filtersToJSON(done.filters))
  const model = done.artifact === null
    ? null
    : {
      format: done.trained?.format ?? "synth.protected",
      formatVersion: done.trained?.formatVersion ?? 1,
      privacy: done.trained?.privacy ?? null
    }
  const transfer = [table, artifact, filters].filter((bytes) => bytes !== null).map((bytes) => bytes.buffer as ArrayBuffer)
  post(
    {
      kind: "done",
      artifact,
      model,
      table,
      filters,
      protection: done.protection,
      rowCount: done.sampled.rowCount,
      columns: outputColumns(done.sampled),
      fitMs: done.fitMs,
      sampleMs: done.sampleMs
    },
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

/** Rows the basic scan reads when the dataset has no stored scan: PII_SAMPLE_ROWS' default (docs/pii.md). */
const scanRows = 10_000

/** The dataset's latest stored scan, or a basic scan of the table now (the roles need one). */
const scanOf = (request: TrainRequest, arrow: Table) =>
  request.scan ?? { kind: "generation" as const, result: scanColumns(sampleScanInput(arrow, scanRows)) }

type TrainRequest = Extract<JobRequest, { kind: "train" }>

const train = async (request: TrainRequest) => {
  if (request.generator !== "gaussian_copula") ranNeuralModel = true
  const arrow = tableFromIPC(request.table)
  const decoded = synthTableFromArrow(arrow)
  if (Result.isFailure(decoded)) return post({ kind: "refused", message: decoded.failure.message })
  const table = decoded.success
  if (table.rowCount === 0) return post({ kind: "refused", message: "The dataset has no rows to learn from." })
  const requested = trainingRules(request, table)
  if (!requested.ok) return post(requested.refused)
  const scan = scanOf(request, arrow)
  const prepared = prepareTraining({
    table,
    scan: scan.result,
    overrides: request.overrides,
    settings: request.protection,
    seed: request.parameters.seed,
    differentiallyPrivate: request.generator === "dp-ctgan",
    protectTogether: fixedCombinationGroups(requested.rules.constraints)
  }, defaultFakers)
  const checked = preparedRules(requested.rules, prepared)
  if (!checked.ok) return post(checked.refused)
  const { rules } = checked
  // Constraints met by construction: the model learns the transformed table and its rows are turned back.
  const transforms = fitConstraintTransforms(rules.constraints, prepared.learned)
  const modelTable = transforms.forward(prepared.learned)
  post({
    kind: "prepared",
    scan: scan.kind,
    columns: prepared.columns.map(({ handling, name, piiType, role }) => ({ name, role, handling, piiType })),
    trainingRows: prepared.trainingRows,
    holdoutRows: prepared.holdoutRows
  })
  post({ kind: "loaded", trainingRows: modelTable.rowCount, columns: widthColumns(modelTable) })
  const fitStarted = performance.now()
  // Nothing to learn when every column is faked or dropped: the output is fresh values only.
  const trained = modelTable.columns.length === 0
    ? Result.succeed(null)
    : await trainModel(request.generator, modelTable, {
      ...request.parameters,
      onFitProgress: (fraction) => post({ kind: "progress", phase: "fitting", fraction }),
      onEpoch: (epoch, losses) => post({ kind: "epoch", epoch, losses })
    })
  if (Result.isFailure(trained)) {
    return post({ kind: "refused", message: refusalMessage(trained.failure) })
  }
  const fitMs = performance.now() - fitStarted
  const sampleStarted = performance.now()
  const model = trained.success === null ? null : constrainedModel(trained.success, transforms)
  const ruled = sampleWithRules(
    prepared.plan,
    model,
    prepared.filters,
    defaultFakers,
    request.numRows,
    request.parameters.seed,
    rules,
    reportEvery("sampling", request.numRows)
  )
  if (!ruled.ok) return post(rulesUnmet(ruled.refusal))
  const output = ruled.sample
  // A generator without constraints stores its model as before; with them, the constraints and transforms around it.
  const stored = rules.constraints.length === 0
    ? trained.success?.toJSON() ?? null
    : constrainedArtifact(rules.constraints, transforms, trained.success)
  finish({
    artifact: protectedArtifact(prepared.plan, stored),
    trained: trained.success,
    sampled: output.table,
    filters: prepared.filters,
    protection: {
      filteredRows: output.filteredRows,
      copiesKept: output.copiesKept,
      redrawnValues: prepared.counts.redrawnValues,
      rareCategoryRows: prepared.counts.rareCategoryRows
    },
    fitMs,
    sampleMs: performance.now() - sampleStarted
  })
}

const refuseArtifact = (message: string) => post({ kind: "refused", message: `The stored model cannot be read: ${message}` })

const sample = async (request: Extract<JobRequest, { kind: "sample" }>) => {
  const json: unknown = JSON.parse(new TextDecoder().decode(request.artifact))
  const started = performance.now()
  const progress = reportEvery("sampling", request.numRows)
  const done = (sampled: SynthTable) =>
    finish({ artifact: null, trained: null, sampled, filters: null, protection: null, fitMs: 0, sampleMs: performance.now() - started })
  // A model trained before the protections existed samples as it always did (conditions met by rejection alone).
  if (!isProtectedArtifact(json)) {
    const model = await loadModel(json)
    if (Result.isFailure(model)) return refuseArtifact(model.failure.message)
    if (isNeural(model.success.format)) ranNeuralModel = true
    const requested = unprotectedSamplingRules(request, model.success)
    if (!requested.ok) return post(requested.refused)
    const drawn = drawAccepted({
      rows: request.numRows,
      draw: (count, round, onDrawn) => model.success.sample(count, round === 0 ? request.seed : (request.seed + round * 0x9e37_79b9) >>> 0, onDrawn),
      ...requested.rules,
      onProgress: progress
    })
    return drawn.ok ? done(drawn.table) : post(rulesUnmet(drawn.refusal))
  }
  const artifact = decodeProtectedArtifact(json)
  if (Result.isFailure(artifact)) return refuseArtifact(artifact.failure)
  const inner = await loadStoredModel(artifact.success.model)
  if ("error" in inner) return refuseArtifact(inner.error)
  if (inner.model !== null && isNeural(inner.model.format)) ranNeuralModel = true
  const filters = request.filters === null ? Result.succeed(null) : filtersFromJSON(JSON.parse(new TextDecoder().decode(request.filters)))
  if (Result.isFailure(filters)) return refuseArtifact(`its real-data filters do not decode (${filters.failure})`)
  const requested = samplingRules(request, inner.constraints, artifact.success.plan, inner.model)
  if (!requested.ok) return post(requested.refused)
  const output = sampleWithRules(artifact.success.plan, inner.model, filters.success, defaultFakers, request.numRows, request.seed, requested.rules, progress)
  if (!output.ok) return post(rulesUnmet(output.refusal))
  done(output.sample.table)
}

serveJobs<JobRequest, WorkerMessage>({
  handle: async (request, jobPost) => {
    channel = jobPost
    try {
      await (request.kind === "train" ? train(request) : sample(request))
    } finally {
      channel = null
    }
  },
  isFinal: (message) => message.kind === "done" || message.kind === "refused",
  reusable: () => !ranNeuralModel
})
