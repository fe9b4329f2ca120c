import OpenAI from "openai"
import { Duration, Effect, Redacted } from "effect"
import { AiLayerFailure, type AiLayerShape } from "./AiLayer.ts"
import { responseFormat, systemPrompt, userMessage, verdictsFromAnswer } from "./llmRequest.ts"

export interface OpenAiLayerOptions {
  readonly apiKey: Redacted.Redacted<string>
  /** undefined: the openai package's default (api.openai.com). */
  readonly baseUrl: string | undefined
  readonly model: string
  readonly timeout: Duration.Duration
}

/** The provider's error as a warning can name it: status and class, never the request (which names columns). */
const describeError = (error: unknown): AiLayerFailure => {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new AiLayerFailure({ reason: "timeout", message: "the AI provider did not answer in time" })
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status === undefined ? "no status" : `HTTP ${error.status}`
    return new AiLayerFailure({ reason: "provider_error", message: `the AI provider answered with an error (${status})` })
  }
  return new AiLayerFailure({ reason: "provider_error", message: "the AI provider could not be reached" })
}

/**
 * Classifies columns with an OpenAI-compatible chat model and a JSON-schema answer (llmRequest.ts says exactly what
 * is sent). One attempt at most `timeout` long: the enhanced scan is waited for by a client, and a failure costs only
 * the AI layer's contribution (the basic result is answered with a warning).
 */
export const makeOpenAiLayer = (options: OpenAiLayerOptions): AiLayerShape => {
  const client = new OpenAI({
    apiKey: Redacted.value(options.apiKey),
    baseURL: options.baseUrl,
    maxRetries: 0,
    timeout: Duration.toMillis(options.timeout)
  })
  return {
    info: { kind: "openai", model: options.model },
    classify: (input) =>
      Effect.tryPromise({
        try: (signal) =>
          client.chat.completions.create(
            {
              model: options.model,
              temperature: 0,
              response_format: responseFormat,
              messages: [
                { role: "system", content: systemPrompt },
                { role: "user", content: userMessage(input) }
              ]
            },
            { signal }
          ),
        catch: describeError
      }).pipe(
        Effect.timeoutOrElse({ duration: options.timeout, orElse: () => Effect.fail(new AiLayerFailure({ reason: "timeout", message: "the AI provider did not answer in time" })) }),
        Effect.flatMap((completion) => {
          const content = completion.choices[0]?.message.content
          const verdicts = typeof content === "string" ? verdictsFromAnswer(input, content) : undefined
          return verdicts === undefined
            ? Effect.fail(
              new AiLayerFailure({
                reason: "invalid_response",
                message: "the AI provider's answer did not follow the requested JSON schema"
              })
            )
            : Effect.succeed(verdicts)
        })
      )
  }
}
