import type { AiColumnVerdict, ScanInput } from "@synth/pii"
import { Context, Data, type Effect } from "effect"

/** Which AI layer runs: a configured OpenAI-compatible model, or the classifier bundled with @synth/pii. */
export interface AiLayerInfo {
  readonly kind: "openai" | "local"
  /** The provider's model name, or the local classifier's artifact version. */
  readonly model: string
}

/** The AI layer gave no usable answer; the enhanced scan degrades to the basic result with a warning. */
export class AiLayerFailure extends Data.TaggedError("AiLayerFailure")<{
  readonly reason: "timeout" | "provider_error" | "invalid_response"
  /** For the result's warning and the log: names the provider's status or error class, never a value. */
  readonly message: string
}> {}

export interface AiLayerShape {
  readonly info: AiLayerInfo
  readonly classify: (input: ScanInput) => Effect.Effect<ReadonlyArray<AiColumnVerdict>, AiLayerFailure>
}

export class AiLayer extends Context.Service<AiLayer, AiLayerShape>()("@synth/privacy/AiLayer") {}
