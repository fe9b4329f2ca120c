import { Context, Data, type Effect, type Option } from "effect"

export interface ChatMessage {
  readonly role: "system" | "user"
  readonly content: string
}

/**
 * The model gave no usable reply (or one that called the data safe against the privacy checks); the chat answers
 * offline instead and says why.
 */
export class ChatModelFailure extends Data.TaggedError("ChatModelFailure")<{
  readonly reason: "timeout" | "provider_error" | "invalid_response" | "unsafe_reply"
  /** Names the provider's status or the kind of failure, never the request (which holds the evaluation's figures). */
  readonly message: string
}> {}

export interface ChatModelShape {
  /** The provider's model name. */
  readonly model: string
  readonly complete: (messages: ReadonlyArray<ChatMessage>) => Effect.Effect<string, ChatModelFailure>
}

/** The configured OpenAI-compatible model, or none (the offline explainer answers every question). */
export class ChatModel extends Context.Service<ChatModel, Option.Option<ChatModelShape>>()("@synth/gateway/ChatModel") {}
