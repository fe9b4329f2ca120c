import { type Context, Effect, type LogLevel } from "effect"
import { logLevel as KafkaLogLevel, type logCreator as LogCreator } from "kafkajs"

/**
 * Fields of kafkajs' log entries that may be shown. Everything else stays out, because some entries carry request
 * payloads, and an event's payload must never reach a log.
 */
const shownFields = ["broker", "clientId", "groupId", "memberId", "topic", "partition", "retryCount", "retryTime", "error"]

const levelOf = (level: KafkaLogLevel): LogLevel.Severity => {
  switch (level) {
    case KafkaLogLevel.ERROR:
      return "Error"
    case KafkaLogLevel.WARN:
      return "Warn"
    case KafkaLogLevel.INFO:
      // kafkajs narrates joins, starts and stops at INFO: useful when debugging, noise otherwise.
      return "Debug"
    default:
      return "Trace"
  }
}

/**
 * kafkajs' logger on Effect's: its entries go through the runtime's loggers, annotated with their namespace. The
 * connection layer logs every error response at ERROR before the caller decides what it means (an expected "topic
 * exists", a retried "coordinator loading"): those go to Debug, and attempts kafkajs retries go to Warning. What is
 * really wrong surfaces where it is handled.
 */
export const effectLogCreator = (runtime: Context.Context<never>): LogCreator => () => ({ label: _label, level, log, namespace }) => {
  const { message, ...extra } = log
  const isResponseError = namespace === "Connection" && message.startsWith("Response ")
  const isRetried = level === KafkaLogLevel.ERROR && (extra as { readonly retryCount?: unknown }).retryCount !== undefined
  const annotations: Record<string, unknown> = namespace === undefined ? {} : { kafka: namespace }
  for (const field of shownFields) {
    const value = (extra as Record<string, unknown>)[field]
    if (value !== undefined) annotations[field] = value
  }
  Effect.runSyncWith(runtime)(
    Effect.logWithLevel(isResponseError ? "Debug" : isRetried ? "Warn" : levelOf(level))(`kafkajs: ${message}`).pipe(
      Effect.annotateLogs(annotations)
    )
  )
}
