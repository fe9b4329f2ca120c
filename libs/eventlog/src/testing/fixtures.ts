import type { EventEnvelope } from "@synth/contracts"
import { type Duration, Effect, Schedule, Stream } from "effect"
import { EventLog, type StoredEvent } from "../EventLog.ts"

/** A topic no other test uses, so suites can share one log (and one Kafka cluster). */
export const uniqueTopic = (label: string): string => `test.${label}.${crypto.randomUUID().slice(0, 8)}`

/** A valid envelope whose payload carries `n`, to tell events apart and check their order. */
export const testEnvelope = (aggregateId: string, n: number): EventEnvelope => ({
  eventId: crypto.randomUUID() as EventEnvelope["eventId"],
  type: "test.happened",
  version: 1,
  aggregateId,
  occurredAt: new Date().toISOString(),
  actor: "service:eventlog-test",
  correlationId: crypto.randomUUID(),
  causationId: null,
  payload: { n }
})

/** The envelope as the producer appended it: an adapter that seals adds `integrity`, and nothing else. */
export const withoutSeal = (envelope: EventEnvelope | undefined): EventEnvelope | undefined => {
  if (envelope === undefined) return undefined
  const { integrity: _seal, ...content } = envelope
  return content
}

export const payloadN = (event: StoredEvent): number => (event.envelope.payload as { readonly n: number }).n

/** Every event of the topic up to its current end, partition by partition, each in offset order. */
export const readAll = (topic: string) =>
  Effect.gen(function*() {
    const log = yield* EventLog
    const partitions = yield* log.partitions(topic)
    const perPartition = yield* Effect.forEach(
      Array.from({ length: partitions }, (_, partition) => partition),
      (partition) =>
        log.read({ topic, partition, fromOffset: 0, follow: false }).pipe(Stream.runCollect)
    )
    return perPartition.flat()
  })

/** Waits until the group's committed offsets reach the topic's end offsets: every event was handled and committed. */
export const waitUntilCommitted = (
  group: string,
  topic: string,
  options: { readonly every: Duration.Input; readonly within: Duration.Input }
) =>
  Effect.gen(function*() {
    const log = yield* EventLog
    const end = yield* log.endOffsets(topic)
    yield* log.committedOffsets(group, topic).pipe(
      Effect.repeat({
        until: (committed) => JSON.stringify(committed) === JSON.stringify(end),
        schedule: Schedule.spaced(options.every)
      }),
      Effect.timeoutOrElse({ duration: options.within, orElse: () => Effect.fail(new Error(`group ${group} never caught up`)) })
    )
  })
