import type { Base, Broker, ConsumerGroupJoinPayload } from "@platformatic/kafka"
import { Effect, type LogLevel } from "effect"

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
    const runtime = yield* Effect.context<never>()
    const log = (level: LogLevel.Severity, message: string, annotations: Record<string, unknown>) =>
      Effect.runForkWith(runtime)(Effect.logWithLevel(level)(`Kafka: ${message}`).pipe(Effect.annotateLogs(annotations)))

    client.on("client:broker:failed", (payload?: { readonly broker?: Broker }) =>
      log("Warn", "connection to a broker failed", brokerOf(payload)))
    client.on("client:broker:disconnect", (payload?: { readonly broker?: Broker }) =>
      log("Debug", "disconnected from a broker", brokerOf(payload)))
    client.on("consumer:group:join", (payload: ConsumerGroupJoinPayload) =>
      log("Debug", "joined its group", {
        groupId: payload.groupId,
        memberId: payload.memberId,
        generationId: payload.generationId
      }))
    client.on("consumer:group:rebalance", (payload: { readonly groupId: string }) =>
      log("Debug", "its group is rebalancing", { groupId: payload.groupId }))
    client.on("consumer:heartbeat:error", (payload: { readonly groupId?: string; readonly error: unknown }) =>
      log("Warn", "a heartbeat failed (retried)", {
        groupId: payload.groupId,
        error: messageOf(payload.error)
      }))
    client.on("consumer:heartbeat:stalled", (payload: { readonly stalledFor: number; readonly lastError?: unknown }) =>
      log("Warn", `no heartbeat succeeded for ${payload.stalledFor} ms`, {
        error: payload.lastError === undefined ? undefined : messageOf(payload.lastError)
      }))
    client.on("error", (error: unknown) => log("Error", "the client failed", { error: messageOf(error) }))
  })
