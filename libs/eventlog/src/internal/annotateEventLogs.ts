import { Effect } from "effect"
import type { StoredEvent } from "../EventLog.ts"

/**
 * Every log line a handler writes while it handles `event` names the event and the request that started its chain
 * (the correlation id is the gateway's request id), so one search follows a request through every service.
 */
export const annotateEventLogs = (event: StoredEvent) =>
  Effect.annotateLogs({
    eventId: event.envelope.eventId,
    eventType: event.envelope.type,
    correlationId: event.envelope.correlationId
  })
