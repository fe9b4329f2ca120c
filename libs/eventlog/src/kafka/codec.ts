import { EventEnvelope } from "@synth/contracts"
import { Effect, Schema } from "effect"
import { type KafkaMessage, Partitioners } from "kafkajs"
import { type AppendRecord, EventLogError, type StoredEvent } from "../EventLog.ts"

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
 * Kafka's own default partitioner (murmur2 of the key, as the Java client computes it), so every Kafka client agrees
 * on an aggregate's partition. It only looks at the number of partitions when the message has a key.
 */
const javaCompatiblePartitioner = Partitioners.DefaultPartitioner()

export const partitionOf = (topic: string, key: string, partitionCount: number): number =>
  javaCompatiblePartitioner({
    topic,
    partitionMetadata: Array.from({ length: partitionCount }, (_, partitionId) => ({
      partitionId,
      leader: 0,
      replicas: [],
      isr: [],
      partitionErrorCode: 0
    })),
    message: { key, value: null }
  })

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
  message: KafkaMessage
): Effect.Effect<StoredEvent, EventLogError> => {
  const where = `${topic}/${partition}@${message.offset}`
  return Effect.try({
    try: () => JSON.parse(message.value?.toString("utf8") ?? "null") as unknown,
    catch: (cause) => new EventLogError({ reason: `The record at ${where} is not JSON`, cause })
  }).pipe(
    Effect.flatMap((json) =>
      Effect.mapError(decodeEnvelope(json), (cause) =>
        new EventLogError({ reason: `The record at ${where} does not decode as an EventEnvelope`, cause }))
    ),
    Effect.map((envelope): StoredEvent => ({
      topic,
      partition,
      offset: Number(message.offset),
      key: message.key?.toString("utf8") ?? envelope.aggregateId,
      envelope,
      appendedAt: new Date(Number(message.timestamp)).toISOString()
    }))
  )
}
