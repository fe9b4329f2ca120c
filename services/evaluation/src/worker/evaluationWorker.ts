import { evaluationRun, quickEvaluation, sampleRows } from "@synth/evaluation"
import { makeRandom, type SynthTable, synthTableFromArrow } from "@synth/synth"
import { tableFromIPC } from "apache-arrow"
import { Either } from "effect"
import { parentPort, workerData } from "node:worker_threads"
import type { EvaluationRequest, WorkerMessage } from "./protocol.ts"

/**
 * The worker thread of one evaluation: it starts with one EvaluationRequest (its workerData) and answers `done` or `refused`. The
 * library throws a plain Error for data it cannot evaluate (its messages name columns, never values): that is a
 * refusal. Anything else is a bug and is left to crash the thread; the parent sees the error event.
 */
const port = parentPort
if (port === null) throw new Error("evaluationWorker.ts runs as a worker thread only")

const post = (message: WorkerMessage, transfer: ReadonlyArray<ArrayBuffer> = []) =>
  port.postMessage(message, transfer as Array<ArrayBuffer>)

class Refusal {
  constructor(readonly message: string) {}
}

const decode = (bytes: Uint8Array, role: string): SynthTable => {
  let decoded: ReturnType<typeof synthTableFromArrow>
  try {
    decoded = synthTableFromArrow(tableFromIPC(bytes))
  } catch (error) {
    throw new Refusal(`The ${role} dataset's table could not be read (${error instanceof Error ? error.message : "not Arrow IPC"}).`)
  }
  if (Either.isLeft(decoded)) throw new Refusal(`The ${role} dataset cannot be evaluated: ${decoded.left.message}`)
  return decoded.right
}

/** The data's doing, not a bug: the library's own errors. */
const isDataError = (error: unknown): error is Error =>
  error instanceof Error && error.constructor === Error

const generatorOption = (request: EvaluationRequest) => (request.generator === undefined ? {} : { generator: request.generator })

const evaluate = (request: EvaluationRequest): WorkerMessage => {
  const real = decode(request.real, "real")
  const synthetic = decode(request.synthetic, "synthetic")
  if (real.rowCount === 0) throw new Refusal("The real dataset has no rows to compare with.")
  if (synthetic.rowCount === 0) throw new Refusal("The synthetic dataset has no rows to evaluate.")
  if (request.kind === "quick") {
    const random = makeRandom(request.seed)
    const quick = quickEvaluation(
      sampleRows(real, request.sampleSize, random.fork()),
      sampleRows(synthetic, request.sampleSize, random.fork()),
      { seed: request.seed, ...generatorOption(request) }
    )
    return encoded(quick, quick.overallScore, quick.qualityLevel, null)
  }
  const holdout = request.holdout === null ? null : decode(request.holdout, "holdout")
  const results = evaluationRun(real, synthetic, holdout === null || holdout.rowCount === 0 ? null : holdout, {
    sampleSize: request.sampleSize,
    mlUtility: request.mlUtility,
    seed: request.seed,
    ...generatorOption(request)
  })
  return encoded({ ...results }, results.summary.overallScore, results.summary.qualityLevel, results.privacy.score)
}

const encoded = (
  results: object,
  overallScore: number | null,
  qualityLevel: string | null,
  privacyScore: number | null
): WorkerMessage => ({
  kind: "done",
  results: new TextEncoder().encode(JSON.stringify(results)),
  overallScore,
  qualityLevel,
  privacyScore
})

const answerTo = (request: EvaluationRequest): WorkerMessage => {
  try {
    return evaluate(request)
  } catch (error) {
    if (error instanceof Refusal) return { kind: "refused", message: error.message }
    if (isDataError(error)) return { kind: "refused", message: `The evaluation could not be computed: ${error.message}.` }
    throw error
  }
}

const answer = answerTo(workerData as EvaluationRequest)
post(answer, answer.kind === "done" ? [answer.results.buffer as ArrayBuffer] : [])
