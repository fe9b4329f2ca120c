import type { UserId } from "@synth/contracts"
import type { EvaluationResults, QuickEvaluation } from "@synth/evaluation"
import { Context, type Effect, type Option } from "effect"

/** What is known about the generator that made the evaluated rows (from the generator's record), when known. */
export interface GeneratorContext {
  readonly type: string
  /** True for a generator trained with differential privacy (dp-ctgan). */
  readonly differentiallyPrivate: boolean
  /** The ε the generator was trained to, when differentially private. */
  readonly targetEpsilon: number | null
}

/** The results of an evaluation a chat may talk about: a quick evaluation, or a full run with privacy and ML utility. */
export type EvaluationForChat =
  | { readonly kind: "quick"; readonly results: QuickEvaluation; readonly generator?: GeneratorContext }
  | { readonly kind: "full"; readonly results: EvaluationResults; readonly generator?: GeneratorContext }

/** An owner's evaluation as the chat sees it: finished with results, or not (yet) usable. */
export type ChatEvaluationState =
  | ({ readonly status: "completed" } & EvaluationForChat)
  | { readonly status: "running" }
  | { readonly status: "failed"; readonly reason: string | null }

/**
 * Where the chat reads an evaluation from, scoped to its owner: none for an id that is unknown or someone else's.
 * Wired to the evaluations read model and the results blob.
 */
export interface ChatEvaluationsShape {
  readonly load: (owner: UserId, evaluationId: string) => Effect.Effect<Option.Option<ChatEvaluationState>>
}

export class ChatEvaluations extends Context.Service<ChatEvaluations, ChatEvaluationsShape>()("@synth/gateway/ChatEvaluations") {}
