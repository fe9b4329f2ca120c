import type { EventEnvelope } from "@synth/contracts"
import { Context, Data, type Effect, type Stream } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"

/** Where an event sits in the log: a partition of a topic and an offset in it (Kafka's model; the embedded log has one partition per topic). */
export interface Position {
  readonly topic: string
  readonly partition: number
  readonly offset: number
}

export interface StoredEvent extends Position {
  /** The aggregate id: the partitioning key. */
  readonly key: string
  readonly envelope: EventEnvelope
  /** When the log accepted it (ISO 8601 UTC); `envelope.occurredAt` is when the producer decided it. */
  readonly appendedAt: string
}

export interface AppendRecord {
  readonly topic: string
  readonly envelope: EventEnvelope
}

export class EventLogError extends Data.TaggedError("EventLogError")<{
  readonly reason: string
  readonly cause?: unknown
}> {}

export interface ConsumeOptions<E, R> {
  /** Consumer group: its committed cursor per partition survives restarts; members of a group share partitions. */
  readonly group: string
  readonly topics: ReadonlyArray<string>
  /** Called in order within a partition; the cursor advances past an event only after this succeeded. */
  readonly handle: (event: StoredEvent) => Effect.Effect<void, E, R>
}

/**
 * The event-log port: an append-only, partitioned log that is the only source of truth.
 * Every adapter passes the contract suite exported from `@synth/eventlog/testing`.
 */
export class EventLog extends Context.Service<
  EventLog,
  {
    /**
     * Appends records, keyed by `envelope.aggregateId`. Durable once the effect succeeds. Idempotent by
     * `envelope.eventId`: appending an event already in the log returns its existing position.
     */
    readonly append: (
      records: NonEmptyReadonlyArray<AppendRecord>
    ) => Effect.Effect<ReadonlyArray<Position>, EventLogError>
    readonly partitions: (topic: string) => Effect.Effect<number, EventLogError>
    /** The next offset to be written, per partition of the topic. */
    readonly endOffsets: (topic: string) => Effect.Effect<ReadonlyArray<Position>, EventLogError>
    /**
     * One partition's events from `fromOffset` on, in offset order. Without `follow` the stream ends at the end
     * offset seen when it started; with `follow` it waits for new events and never ends.
     */
    readonly read: (options: {
      readonly topic: string
      readonly partition: number
      readonly fromOffset: number
      readonly follow: boolean
    }) => Stream.Stream<StoredEvent, EventLogError>
    /** Runs a consumer-group member until interrupted. */
    readonly consume: <E, R>(options: ConsumeOptions<E, R>) => Effect.Effect<never, EventLogError | E, R>
    /** The group's committed next offset per partition (0 where nothing was committed). */
    readonly committedOffsets: (group: string, topic: string) => Effect.Effect<ReadonlyArray<Position>, EventLogError>
  }
>()("@synth/eventlog/EventLog") {}
