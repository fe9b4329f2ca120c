import { Cause, Config, ConfigError, Effect, Either, FiberRef, HashMap, HashSet, Layer, Logger, LogLevel } from "effect"

/**
 * LOG_FORMAT: `json` (one JSON object per line, for log collectors) or `pretty` (Effect's coloured lines, for a
 * person at a terminal). By default JSON unless stdout is a terminal. LOG_LEVEL: the least severe level written
 * (trace, debug, info, warning, error, fatal, none); info by default.
 */
const levelsByName = new Map<string, LogLevel.LogLevel>([
  ["all", LogLevel.All],
  ["trace", LogLevel.Trace],
  ["debug", LogLevel.Debug],
  ["info", LogLevel.Info],
  ["warn", LogLevel.Warning],
  ["warning", LogLevel.Warning],
  ["error", LogLevel.Error],
  ["fatal", LogLevel.Fatal],
  ["none", LogLevel.None]
])

export const LoggingConfig = Config.all({
  format: Config.literal("json", "pretty")("LOG_FORMAT").pipe(Config.option),
  level: Config.string("LOG_LEVEL").pipe(
    Config.mapOrFail((text) => {
      const level = levelsByName.get(text.trim().toLowerCase())
      return level === undefined
        ? Either.left(ConfigError.InvalidData([], `Expected one of ${[...levelsByName.keys()].join(", ")}, got "${text}"`))
        : Either.right(level)
    }),
    Config.withDefault(LogLevel.Info)
  )
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
  Logger.make(({ annotations, cause, date, logLevel, message }) => {
    const record: Record<string, unknown> = {
      timestamp: date.toISOString(),
      level: logLevel.label.toLowerCase(),
      service,
      message: messageText(message)
    }
    for (const [key, value] of HashMap.toEntries(annotations)) {
      if (!(key in record)) record[key] = value
    }
    if (!Cause.isEmpty(cause)) record["cause"] = Cause.pretty(cause, { renderErrorCause: true })
    let line: string
    try {
      line = JSON.stringify(record, jsonReplacer)
    } catch {
      line = JSON.stringify({ timestamp: record["timestamp"], level: record["level"], service, message: record["message"] })
    }
    globalThis.console.log(line)
  })

/**
 * The process's logger for `service`: replaces the default and the pretty logger (NodeRuntime.runMain installs the
 * latter) with the configured format, and applies LOG_LEVEL. Provide it around `Layer.launch`, so every fiber of the
 * runtime inherits it.
 */
export const layerLogging = (service: string): Layer.Layer<never, ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const { format, level } = yield* LoggingConfig
      const json = format._tag === "Some" ? format.value === "json" : process.stdout.isTTY !== true
      const chosen = json ? jsonLogger(service) : Logger.prettyLoggerDefault
      return Layer.mergeAll(
        Layer.scopedDiscard(
          Effect.locallyScopedWith(FiberRef.currentLoggers, (loggers) =>
            HashSet.add(HashSet.remove(HashSet.remove(loggers, Logger.defaultLogger), Logger.prettyLoggerDefault), chosen))
        ),
        Logger.minimumLogLevel(level)
      )
    })
  )
