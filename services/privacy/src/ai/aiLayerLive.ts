import { Effect, Layer, Option } from "effect"
import { PrivacyConfig } from "../PrivacyConfig.ts"
import { AiLayer } from "./AiLayer.ts"
import { localAiLayer } from "./localAiLayer.ts"
import { makeOpenAiLayer } from "./openAiLayer.ts"

/** The AI layer the settings choose: the OpenAI-compatible model when OPENAI_API_KEY is set, else the local one. */
export const AiLayerLive = Layer.effect(
  AiLayer,
  Effect.gen(function* () {
    const config = yield* PrivacyConfig
    return Option.match(config.openAi.apiKey, {
      onNone: () => localAiLayer,
      onSome: (apiKey) =>
        makeOpenAiLayer({
          apiKey,
          baseUrl: Option.getOrUndefined(config.openAi.baseUrl),
          model: config.openAi.model,
          timeout: config.aiTimeout
        })
    })
  })
)
