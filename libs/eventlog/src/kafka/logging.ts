import { Effect, LogLevel, Runtime } from "effect"
import { logLevel as KafkaLogLevel, type logCreator as LogCreator } from "kafkajs"

/**
 * Fields of kafkajs' log entries that may be shown. Everything else stays out, because some entries carry request
 * payloads, and an event's payload must never reach a log.
 */
const shownFields = ["broker", "clientId", "groupId", "memberId", "topic", "partition", "retryCount", "retryTime", "error"]

const levelOf = (level: KafkaLogLevel) => {
  switch (level) {
    case KafkaLogLevel.ERROR:
      return LogLevel.Error
    case KafkaLogLevel.WARN:
      return LogLevel.Warning
    case KafkaLogLevel.INFO:
      // kafkajs narrates joins, starts and stops at INFO: useful when debugging, noise otherwise.
      return LogLevel.Debug
    default:
      return LogLevel.Trace
  }
}

/**
 * kafkajs' logger on Effect's: its entries go through the runtime's loggers, annotated with their namespace. The
 * connection layer logs every error response at ERROR before the caller decides what it means (an expected "topic
 * exists", a retried "coordinator loading"): those go to Debug, and attempts kafkajs retries go to Warning. What is
 * really wrong surfaces where it is handled.
 */
export const effectLogCreator = (runtime: Runtime.Runtime<never>): LogCreator => () => ({ label: _label, level, log, namespace }) => {
  const { message, ...extra } = log
  const isResponseError = namespace === "Connection" && message.startsWith("Response ")
  const isRetried = level === KafkaLogLevel.ERROR && (extra as { readonly retryCount?: unknown }).retryCount !== undefined
  const annotations: Record<string, unknown> = namespace === undefined ? {} : { kafka: namespace }
  for (const field of shownFields) {
    const value = (extra as Record<string, unknown>)[field]
    if (value !== undefined) annotations[field] = value
  }
  Runtime.runSync(runtime)(
    Effect.logWithLevel(
      isResponseError ? LogLevel.Debug : isRetried ? LogLevel.Warning : levelOf(level),
      `kafkajs: ${message}`
    ).pipe(
      Effect.annotateLogs(annotations)
    )
  )
}
