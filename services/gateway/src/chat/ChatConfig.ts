import { Config, Duration, Option, Redacted } from "effect"

/**
 * The chat's model settings, named as the PII scanner's AI layer names them (services/privacy PrivacyConfig): the
 * OpenAI-compatible model is used when OPENAI_API_KEY is set (any value for a local server without keys),
 * OPENAI_BASE_URL points at another provider or a local server, LLM_MODEL names the model. LLM_CHAT_TIMEOUT bounds
 * one reply: the client waits for it synchronously.
 */
export const ChatConfig = Config.all({
  // Compose passes unset variables as empty strings: empty means not configured.
  apiKey: Config.option(Config.Redacted("OPENAI_API_KEY")).pipe(Config.map(Option.filter((key) => Redacted.value(key).trim() !== ""))),
  baseUrl: Config.option(Config.String("OPENAI_BASE_URL")).pipe(
    Config.map(Option.filter((url) => url.trim() !== "")),
    Config.map(Option.getOrElse(() => "https://api.openai.com/v1"))
  ),
  model: Config.String("LLM_MODEL").pipe(Config.withDefault("gpt-4o-mini")),
  timeout: Config.Duration("LLM_CHAT_TIMEOUT").pipe(Config.withDefault(Duration.seconds(20)))
})
export type ChatConfig = Config.Success<typeof ChatConfig>
