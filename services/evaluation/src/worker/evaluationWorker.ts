import { evaluationRun, type GeneratorPrivacy, quickEvaluation, sampleRows } from "@synth/evaluation"
import { holdoutRows } from "@synth/protect"
import { makeRandom, type SynthTable, synthTableFromArrow } from "@synth/synth"
import { tableFromIPC } from "apache-arrow"
import { Result } from "effect"
import { serveJobs } from "@synth/threads/worker"
import type { EvaluationRequest, WorkerMessage } from "./protocol.ts"

/**
 * A pooled evaluation thread: each job is one EvaluationRequest, answered `done` or `refused`. The library throws a
 * plain Error for data it cannot evaluate (its messages name columns, never values): that is a refusal. Anything
 * else is a bug and is left to crash the thread; the pool sees the error event.
 */
class Refusal {
  readonly message: string
  constructor(message: string) {
    this.message = message
  }
}

const decode = (bytes: Uint8Array, role: string): SynthTable => {
  let decoded: ReturnType<typeof synthTableFromArrow>
  try {
    decoded = synthTableFromArrow(tableFromIPC(bytes))
  } catch (error) {
    throw new Refusal(`The ${role} dataset's table could not be read (${error instanceof Error ? error.message : "not Arrow IPC"}).`)
  }
  if (Result.isFailure(decoded)) throw new Refusal(`The ${role} dataset cannot be evaluated: ${decoded.failure.message}`)
  return decoded.success
}

/** The data's doing, not a bug: the library's own errors. */
const isDataError = (error: unknown): error is Error =>
  error instanceof Error && error.constructor === Error

const generatorOption = (request: EvaluationRequest) => (request.generator === undefined ? {} : { generator: request.generator })

/**
 * The generator's protections in the library's terms, its held-out rows drawn again from the real table as the
 * generation job drew them (same row count, share and seed). A count that differs from the one the job recorded
 * means the rows cannot be told apart, and an attack on the wrong rows would mislead: refused.
 */
const generatorPrivacy = (request: EvaluationRequest, real: SynthTable): GeneratorPrivacy | undefined => {
  const privacy = request.generatorPrivacy
  if (privacy === undefined) return undefined
  const holdout = privacy.holdout
  const heldOutRows = holdout === null ? null : holdoutRows(real.rowCount, { share: holdout.share, maxRows: holdout.maxRows }, holdout.seed)
  if (holdout !== null && holdout.rows !== undefined && heldOutRows!.length !== holdout.rows) {
    throw new Refusal(
      `The generator held out ${holdout.rows} rows, but drawing them again from the real dataset's ${real.rowCount} rows gives ` +
        `${heldOutRows!.length}: the training rows cannot be told from the held-out ones.`
    )
  }
  return { columns: privacy.columns, rareThreshold: privacy.rareCategoryThreshold, heldOutRows }
}

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
      { seed: request.seed, ...generatorOption(request), columns: request.generatorPrivacy?.columns ?? null }
    )
    return encoded(quick, quick.overallScore, quick.qualityLevel, null)
  }
  const holdout = request.holdout === null ? null : decode(request.holdout, "holdout")
  const results = evaluationRun(real, synthetic, holdout === null || holdout.rowCount === 0 ? null : holdout, {
    sampleSize: request.sampleSize,
    mlUtility: request.mlUtility,
    seed: request.seed,
    ...generatorOption(request),
    ...(request.generatorPrivacy === undefined ? {} : { generatorPrivacy: generatorPrivacy(request, real)! })
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

serveJobs<EvaluationRequest, WorkerMessage>({
  handle: async (request, post) => {
    const answer = answerTo(request)
    post(answer, answer.kind === "done" ? [answer.results.buffer as ArrayBuffer] : [])
  },
  isFinal: () => true
})
