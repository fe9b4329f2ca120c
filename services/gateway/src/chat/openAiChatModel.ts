import { HttpClient, HttpClientRequest } from "effect/http"
import { Duration, Effect, Redacted, Schema } from "effect"
import { type ChatMessage, ChatModelFailure, type ChatModelShape } from "./ChatModel.ts"

export interface OpenAiChatOptions {
  readonly apiKey: Redacted.Redacted<string>
  /** The provider's base URL, up to and including `/v1`. */
  readonly baseUrl: string
  readonly model: string
  readonly timeout: Duration.Duration
}

/** Enough for a few paragraphs: replies are meant to be short. */
const maxReplyTokens = 800

const Completion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({ message: Schema.Struct({ content: Schema.NullOr(Schema.String) }) }))
})

const timeout = () => new ChatModelFailure({ reason: "timeout", message: "the model did not answer in time" })
const invalid = (message: string) => new ChatModelFailure({ reason: "invalid_response", message })

/**
 * An OpenAI-compatible chat completion (POST {baseUrl}/chat/completions), one attempt at most `timeout` long: a
 * client waits for the reply, and a failure costs only the model's wording (the offline answer stands in).
 */
export const makeOpenAiChatModel = (options: OpenAiChatOptions) =>
  Effect.map(HttpClient.HttpClient, (client): ChatModelShape => {
    const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`
    const complete = (messages: ReadonlyArray<ChatMessage>) =>
      HttpClientRequest.post(url).pipe(
        HttpClientRequest.bearerToken(Redacted.value(options.apiKey)),
        HttpClientRequest.bodyJsonUnsafe({ model: options.model, temperature: 0, max_tokens: maxReplyTokens, messages }),
        client.execute,
        Effect.mapError(() => new ChatModelFailure({ reason: "provider_error", message: "the model's provider could not be reached" })),
        Effect.flatMap((response) =>
          response.status >= 200 && response.status < 300
            ? Effect.mapError(response.json, () => invalid("the model's answer was not JSON"))
            : Effect.fail(new ChatModelFailure({ reason: "provider_error", message: `the model's provider answered with an error (HTTP ${response.status})` }))
        ),
        Effect.flatMap((body) =>
          Effect.mapError(Schema.decodeUnknownEffect(Completion)(body), () => invalid("the model's answer was not a chat completion"))
        ),
        Effect.flatMap((completion) => {
          const content = completion.choices[0].message.content?.trim() ?? ""
          return content === "" ? Effect.fail(invalid("the model's reply was empty")) : Effect.succeed(content)
        }),
        Effect.timeoutOrElse({ duration: options.timeout, orElse: () => Effect.fail(timeout()) })
      )
    return { model: options.model, complete }
  })
