import { Cause, Config, Effect, Layer, Logger, LogLevel, References, Schema, SchemaGetter, SchemaIssue } from "effect"

/**
 * LOG_FORMAT: `json` (one JSON object per line, for log collectors) or `pretty` (Effect's coloured lines, for a
 * person at a terminal). By default JSON unless stdout is a terminal. LOG_LEVEL: the least severe level written
 * (trace, debug, info, warning, error, fatal, none); info by default.
 */
const levelsByName = new Map<string, LogLevel.LogLevel>([
  ["all", "All"],
  ["trace", "Trace"],
  ["debug", "Debug"],
  ["info", "Info"],
  ["warn", "Warn"],
  ["warning", "Warn"],
  ["error", "Error"],
  ["fatal", "Fatal"],
  ["none", "None"]
])

/** A level by its name in any case (`warn` and `warning` are the same level). */
const LevelName = Schema.String.pipe(
  Schema.decodeTo(Schema.Literals(LogLevel.values), {
    decode: SchemaGetter.transformEffect((text: string) => {
      const level = levelsByName.get(text.trim().toLowerCase())
      return level === undefined
        ? Effect.fail(new SchemaIssue.InvalidValue({
          message: `Expected one of ${[...levelsByName.keys()].join(", ")}, got "${text}"`
        }))
        : Effect.succeed(level)
    }),
    encode: SchemaGetter.transform((level: LogLevel.LogLevel) => level.toLowerCase())
  })
)

export const LoggingConfig = Config.all({
  format: Config.Literals(["json", "pretty"], "LOG_FORMAT").pipe(Config.option),
  level: Config.schema(LevelName, "LOG_LEVEL").pipe(Config.withDefault("Info"))
})

const messageText = (message: unknown): string => {
  const parts = Array.isArray(message) ? message : [message]
  return parts.map((part) => (typeof part === "string" ? part : safeJson(part))).join(" ")
}

const safeJson = (value: unknown) => {
  try {
    return JSON.stringify(value, jsonReplacer) ?? String(value)
  } catch {
    return String(value)
  }
}

const jsonReplacer = (_key: string, value: unknown) => {
  if (typeof value === "bigint") return value.toString()
  if (value instanceof Error) return { name: value.name, message: value.message }
  return value
}

/**
 * One JSON object per line: `timestamp` (ISO 8601 UTC), `level`, `service`, `message`, then the log annotations in
 * effect where the line was written (`requestId` while serving a request, `eventId`/`correlationId`/`eventType`
 * while handling an event, ...), and `cause` (rendered with its stack) when the line carries a failure.
 */
export const jsonLogger = (service: string) =>
  Logger.make(({ cause, date, fiber, logLevel, message }) => {
    const record: Record<string, unknown> = {
      timestamp: date.toISOString(),
      level: logLevel.toLowerCase(),
      service,
      message: messageText(message)
    }
    for (const [key, value] of Object.entries(fiber.getRef(References.CurrentLogAnnotations))) {
      if (!(key in record)) record[key] = value
    }
    if (cause.reasons.length > 0) record["cause"] = Cause.pretty(cause)
    let line: string
    try {
      line = JSON.stringify(record, jsonReplacer)
    } catch {
      line = JSON.stringify({ timestamp: record["timestamp"], level: record["level"], service, message: record["message"] })
    }
    globalThis.console.log(line)
  })

/**
 * The process's logger for `service`: the configured format replaces every other logger (the default one, and
 * whatever a runtime installed), and LOG_LEVEL is the minimum level. Provide it around `Layer.launch`, so every
 * fiber of the runtime inherits it.
 */
export const layerLogging = (service: string): Layer.Layer<never, Config.ConfigError> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const { format, level } = yield* LoggingConfig
      const json = format._tag === "Some" ? format.value === "json" : process.stdout.isTTY !== true
      const chosen = json ? jsonLogger(service) : Logger.consolePretty()
      return Layer.mergeAll(Logger.layer([chosen]), Layer.succeed(References.MinimumLogLevel)(level))
    })
  )
