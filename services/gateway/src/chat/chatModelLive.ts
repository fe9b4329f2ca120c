import { FetchHttpClient } from "effect/http"
import { Effect, Layer, Option } from "effect"
import { ChatConfig } from "./ChatConfig.ts"
import { ChatModel } from "./ChatModel.ts"
import { makeOpenAiChatModel } from "./openAiChatModel.ts"

/** The model the settings choose: the OpenAI-compatible one when OPENAI_API_KEY is set, else none (offline answers). */
export const ChatModelLive = Layer.effect(
  ChatModel,
  Effect.gen(function* () {
    const config = yield* ChatConfig
    if (Option.isNone(config.apiKey)) return Option.none()
    const model = yield* makeOpenAiChatModel({ apiKey: config.apiKey.value, baseUrl: config.baseUrl, model: config.model, timeout: config.timeout })
    return Option.some(model)
  })
).pipe(Layer.provide(FetchHttpClient.layer))
