import { EventEnvelope } from "@synth/contracts"
import { Effect, Schema, Stream } from "effect"
import * as Arr from "effect/Array"
import { type AppendRecord, EventLog, EventLogError } from "../EventLog.ts"
import { makeChanges } from "./changes.ts"
import { makeConsume } from "./consume.ts"
import { makeRead } from "./read.ts"
import type { EncodedRecord, LogStore } from "./store.ts"

const encodeEnvelope = Schema.encodeEffect(EventEnvelope)

/** FNV-1a: stable across processes and versions, so a key keeps its partition for the life of the log. */
const partitionOf = (key: string, partitionCount: number): number => {
  let hash = 0x811c9dc5
  for (let index = 0; index < key.length; index++) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193)
  }
  return (hash >>> 0) % partitionCount
}

const invalid = (record: AppendRecord, why: string) => (cause: unknown) =>
  new EventLogError({ reason: `Event ${String(record.envelope.eventId)} for topic ${record.topic} ${why}`, cause })

/**
 * Checked on the way in, because the log is append-only: an envelope that did not decode (or a payload JSON cannot
 * carry, such as a bigint) would stay unreadable for every consumer forever.
 */
const encodeRecord = (partitionCount: number) => (record: AppendRecord) =>
  encodeEnvelope(record.envelope).pipe(
    Effect.mapError(invalid(record, "is not a valid EventEnvelope")),
    Effect.flatMap((envelope) =>
      Effect.try({
        try: (): EncodedRecord => ({
          topic: record.topic,
          partition: partitionOf(envelope.aggregateId, partitionCount),
          eventId: envelope.eventId,
          key: envelope.aggregateId,
          type: envelope.type,
          version: envelope.version,
          encoded: envelope,
          json: JSON.stringify(envelope)
        }),
        catch: invalid(record, "cannot be written as JSON")
      })
    )
  )

/** The whole port on top of a store that keeps its data in (or next to) this process. */
export const fromStore = (store: LogStore): Effect.Effect<EventLog["Service"]> =>
  Effect.gen(function*() {
    const changes = yield* makeChanges
    const read = makeRead(store, changes)
    const consume = makeConsume(store, read)
    const partitionNumbers = Array.from({ length: store.partitionCount }, (_, partition) => partition)

    return EventLog.of({
      append: Effect.fn("EventLog.append")(function*(records: Arr.NonEmptyReadonlyArray<AppendRecord>) {
        const encoded = yield* Effect.all(Arr.map(records, encodeRecord(store.partitionCount)))
        const positions = yield* store.append(encoded)
        yield* changes.notify(positions.map((position) => position.topic))
        return positions
      }),
      partitions: (_topic) => Effect.succeed(store.partitionCount),
      endOffsets: Effect.fn("EventLog.endOffsets")(function*(topic: string) {
        return yield* Effect.forEach(partitionNumbers, (partition) =>
          Effect.map(store.endOffset(topic, partition), (offset) => ({ topic, partition, offset })))
      }),
      read: (options) => read(options).pipe(Stream.withSpan("EventLog.read", { attributes: { ...options } })),
      consume: (options) =>
        consume(options).pipe(
          Effect.withSpan("EventLog.consume", { attributes: { group: options.group, topics: options.topics } })
        ),
      committedOffsets: Effect.fn("EventLog.committedOffsets")(function*(group: string, topic: string) {
        return yield* Effect.forEach(partitionNumbers, (partition) =>
          Effect.map(store.committedOffset(group, topic, partition), (offset) => ({ topic, partition, offset })))
      })
    })
  })
