import type { EvaluationGeneratorPrivacy } from "@synth/contracts"
import type { GeneratorKind, MlUtilityConfig } from "@synth/evaluation"

/**
 * Messages between an evaluation and its worker thread. The tables cross as Arrow IPC bytes and the results come
 * back as JSON bytes, so the worker does every CPU-heavy step: decoding, sampling, the metrics and the encoding.
 */
export interface EvaluationRequest {
  readonly kind: "quick" | "run"
  readonly real: Uint8Array
  readonly synthetic: Uint8Array
  /** Real rows the generator never saw (a run's privacy part only). */
  readonly holdout: Uint8Array | null
  /** Rows sampled from each table before any metric. */
  readonly sampleSize: number
  readonly seed: number
  /** A run's ML utility part, in the library's terms; null leaves it out. */
  readonly mlUtility: MlUtilityConfig | null
  /** The generator's model, so the recommendations can name its settings; absent in requests from before it. */
  readonly generator?: GeneratorKind
  /** The generator's column roles, held-out rows and k, as the request carried them; absent in requests from before. */
  readonly generatorPrivacy?: EvaluationGeneratorPrivacy
}

export type WorkerMessage =
  | {
    readonly kind: "done"
    /** The results as UTF-8 JSON: the QuickEvaluation of a quick evaluation, the EvaluationResults of a run. */
    readonly results: Uint8Array
    readonly overallScore: number | null
    readonly qualityLevel: string | null
    /** The privacy part's score (runs only). */
    readonly privacyScore: number | null
  }
  /** The data cannot be evaluated: a message for the user, naming columns, never values. */
  | { readonly kind: "refused"; readonly message: string }
