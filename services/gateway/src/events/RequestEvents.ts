import { type Actor, type DomainEvent, ServiceUnavailable } from "@synth/contracts"
import { EventWriter } from "@synth/eventlog"
import { ProjectorRuntime } from "@synth/sql"
import { Context, Effect, Layer } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { GatewayConfig } from "../config.ts"
import { currentRequestId } from "../http/requestContext.ts"

export interface RequestEventsOptions {
  readonly aggregateId: string
  readonly actor: Actor
  /** What the client is told when the events are in the log but not in the read models in time (503). */
  readonly notVisibleDetail: string
}

/**
 * Events decided on a client's request: appended with the request id as correlation id, then waited for until the
 * gateway's read models show them (read-your-writes, READ_YOUR_WRITES_TIMEOUT), so the next request of the same
 * client sees its own write. Only the read models a client reads next are waited for: the audit feed is not
 * (`readYourWrites: false` in readModels.ts; its readers wait for it instead). The events are in the log either
 * way: on a timeout the client gets a 503 that says so, never an error that suggests nothing happened, and the
 * warning logged names the projections that were late.
 */
export class RequestEvents extends Context.Service<RequestEvents>()("@synth/gateway/RequestEvents", {
  make: Effect.gen(function* () {
    const writer = yield* EventWriter
    const projector = yield* ProjectorRuntime
    const config = yield* GatewayConfig

    const commit = Effect.fn("RequestEvents.commit")(function* (
      events: NonEmptyReadonlyArray<DomainEvent>,
      options: RequestEventsOptions
    ) {
      const positions = yield* writer.append(events, {
        aggregateId: options.aggregateId,
        actor: options.actor,
        correlationId: yield* currentRequestId,
        causationId: null
      })
      yield* projector.waitFor(positions, config.readYourWritesTimeout).pipe(
        Effect.tapError((timeout) => Effect.logWarning(`Read-your-writes wait ran out: ${timeout.message}`)),
        Effect.catch(() => new ServiceUnavailable({ detail: options.notVisibleDetail }))
      )
      return positions
    })

    return { commit } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
