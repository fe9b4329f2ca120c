import { compatibilityPartitioner } from "@platformatic/kafka"
import { EventEnvelope } from "@synth/contracts"
import { Effect, Schema } from "effect"
import { type AppendRecord, EventLogError, type StoredEvent } from "../EventLog.ts"
import type { FetchedRecord } from "./fetch.ts"

/** A record ready to produce: validated, serialized, its partition chosen from its key. */
export interface OutgoingRecord {
  /** The topic as the application names it (without the adapter's prefix). */
  readonly topic: string
  readonly partition: number
  /** Lower case, the way the log compares event ids. */
  readonly eventId: string
  readonly key: string
  readonly type: string
  /** The encoded envelope, sealed by the appender into `value` when it is sent. */
  readonly encoded: typeof EventEnvelope.Encoded
  /** The envelope as JSON before sealing: for the request size estimate. */
  readonly value: string
  readonly headers: Readonly<Record<string, string>>
}

const encodeEnvelope = Schema.encodeEffect(EventEnvelope)
const decodeEnvelope = Schema.decodeUnknownEffect(EventEnvelope)

/**
 * Kafka's own default partitioner (murmur2 of the key's UTF-8 bytes, made positive as the Java client does), so every
 * Kafka client agrees on an aggregate's partition. The client's plain default normalizes the hash differently.
 */
export const partitionOf = (topic: string, key: string, partitionCount: number): number => {
  const bytes = Buffer.from(key, "utf8")
  return compatibilityPartitioner({ topic, key: bytes }, bytes) % partitionCount
}

const invalid = (record: AppendRecord, why: string) => (cause: unknown) =>
  new EventLogError({ reason: `Event ${String(record.envelope.eventId)} for topic ${record.topic} ${why}`, cause })

/**
 * Checked on the way in, because the log is append-only: an envelope that does not decode (or a payload JSON cannot
 * carry, such as a bigint) would stay unreadable for every consumer forever.
 */
export const encodeRecord = (record: AppendRecord, partitionCount: number): Effect.Effect<OutgoingRecord, EventLogError> =>
  encodeEnvelope(record.envelope).pipe(
    Effect.mapError(invalid(record, "is not a valid EventEnvelope")),
    Effect.flatMap((envelope) =>
      Effect.try({
        try: (): OutgoingRecord => ({
          topic: record.topic,
          partition: partitionOf(record.topic, envelope.aggregateId, partitionCount),
          eventId: envelope.eventId.toLowerCase(),
          key: envelope.aggregateId,
          type: envelope.type,
          encoded: envelope,
          value: JSON.stringify(envelope),
          // For tools that route or filter without parsing the value.
          headers: { eventId: envelope.eventId, type: envelope.type, version: String(envelope.version) }
        }),
        catch: invalid(record, "cannot be written as JSON")
      })
    )
  )

/** A stored value was validated on append: one that does not decode was written by something other than this adapter. */
export const decodeMessage = (
  topic: string,
  partition: number,
  record: FetchedRecord
): Effect.Effect<StoredEvent, EventLogError> => {
  const where = `${topic}/${partition}@${record.offset}`
  return Effect.try({
    try: () => JSON.parse(record.text) as unknown,
    catch: (cause) => new EventLogError({ reason: `The record at ${where} is not JSON`, cause })
  }).pipe(
    Effect.flatMap((json) =>
      Effect.mapError(decodeEnvelope(json), (cause) =>
        new EventLogError({ reason: `The record at ${where} does not decode as an EventEnvelope`, cause }))
    ),
    Effect.map((envelope): StoredEvent => ({
      topic,
      partition,
      offset: record.offset,
      key: record.key ?? envelope.aggregateId,
      envelope,
      appendedAt: new Date(record.timestamp).toISOString()
    }))
  )
}
