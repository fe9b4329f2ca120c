import type { Base, Broker, ConsumerGroupJoinPayload } from "@platformatic/kafka"
import { Effect, LogLevel, Runtime } from "effect"

const brokerOf = (payload: { readonly broker?: Broker } | undefined) =>
  payload?.broker === undefined ? {} : { broker: `${payload.broker.host}:${payload.broker.port}` }

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The client's events on Effect's loggers. Only what says where (broker, group, member) and what went wrong (an
 * error's message) is logged: events can carry requests and records, and an event's payload must never reach a log.
 * Connections that fail and heartbeats that stop are worth a Warning; group joins and rebalances, which a deploy or
 * a scaled service causes all the time, go to Debug. What really fails surfaces where it is handled. The client
 * raises `error` when a consumer cannot rejoin its group; an EventEmitter without a listener for it would throw.
 */
export const logClientEvents = (client: Base<any, any>) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const log = (level: LogLevel.LogLevel, message: string, annotations: Record<string, unknown>) =>
      Runtime.runFork(runtime)(Effect.logWithLevel(level, `Kafka: ${message}`).pipe(Effect.annotateLogs(annotations)))

    client.on("client:broker:failed", (payload?: { readonly broker?: Broker }) =>
      log(LogLevel.Warning, "connection to a broker failed", brokerOf(payload)))
    client.on("client:broker:disconnect", (payload?: { readonly broker?: Broker }) =>
      log(LogLevel.Debug, "disconnected from a broker", brokerOf(payload)))
    client.on("consumer:group:join", (payload: ConsumerGroupJoinPayload) =>
      log(LogLevel.Debug, "joined its group", {
        groupId: payload.groupId,
        memberId: payload.memberId,
        generationId: payload.generationId
      }))
    client.on("consumer:group:rebalance", (payload: { readonly groupId: string }) =>
      log(LogLevel.Debug, "its group is rebalancing", { groupId: payload.groupId }))
    client.on("consumer:heartbeat:error", (payload: { readonly groupId?: string; readonly error: unknown }) =>
      log(LogLevel.Warning, "a heartbeat failed (retried)", {
        groupId: payload.groupId,
        error: messageOf(payload.error)
      }))
    client.on("consumer:heartbeat:stalled", (payload: { readonly stalledFor: number; readonly lastError?: unknown }) =>
      log(LogLevel.Warning, `no heartbeat succeeded for ${payload.stalledFor} ms`, {
        error: payload.lastError === undefined ? undefined : messageOf(payload.lastError)
      }))
    client.on("error", (error: unknown) => log(LogLevel.Error, "the client failed", { error: messageOf(error) }))
  })
