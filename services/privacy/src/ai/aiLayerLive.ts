import { Effect, Layer, Option } from "effect"
import { PrivacyConfig } from "../PrivacyConfig.ts"
import { AiLayer } from "./AiLayer.ts"
import { localAiLayer } from "./localAiLayer.ts"

/**
 * The AI layer the settings choose: the OpenAI-compatible model when OPENAI_API_KEY is set, else the local one. The
 * OpenAI client loads only when it is chosen.
 */
export const AiLayerLive = Layer.effect(
  AiLayer,
  Effect.gen(function* () {
    const config = yield* PrivacyConfig
    if (Option.isNone(config.openAi.apiKey)) return localAiLayer
    const { makeOpenAiLayer } = yield* Effect.promise(() => import("./openAiLayer.ts"))
    return makeOpenAiLayer({
      apiKey: config.openAi.apiKey.value,
      baseUrl: Option.getOrUndefined(config.openAi.baseUrl),
      model: config.openAi.model,
      timeout: config.aiTimeout
    })
  })
)
