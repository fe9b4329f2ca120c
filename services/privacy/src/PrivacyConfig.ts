import { Config, Duration, Option, Redacted, Schema } from "effect"

/**
 * Settings of the privacy service. The OpenAI-compatible AI layer is used when OPENAI_API_KEY is set (a local
 * server that needs no key takes any value); OPENAI_BASE_URL points it at another provider or a local server.
 * Without a key the enhanced scan uses the bundled local classifier.
 */
export const PrivacyConfig = Config.all({
  /** Rows scanned per column at most: a scan of a million rows costs about what one of this many does. */
  sampleRows: Config.schema(Schema.Int.check(Schema.makeFilter((rows: number) => rows >= 100, { message: "PII_SAMPLE_ROWS must be at least 100" })), "PII_SAMPLE_ROWS").pipe(
    Config.withDefault(10_000)
  ),
  /** How long the enhanced scan waits for the AI provider before answering with the basic result and a warning. */
  aiTimeout: Config.Duration("PII_AI_TIMEOUT").pipe(Config.withDefault(Duration.seconds(20))),
  openAi: Config.all({
    // Compose passes unset variables as empty strings: empty means not configured.
    apiKey: Config.option(Config.Redacted("OPENAI_API_KEY")).pipe(
      Config.map(Option.filter((key) => Redacted.value(key).trim() !== ""))
    ),
    baseUrl: Config.option(Config.String("OPENAI_BASE_URL")).pipe(Config.map(Option.filter((url) => url.trim() !== ""))),
    model: Config.String("LLM_MODEL").pipe(Config.withDefault("gpt-4o-mini"))
  })
})
export type PrivacyConfig = Config.Success<typeof PrivacyConfig>

