import { Clock, Effect, Layer } from "effect"
import { EventLog, type Position } from "./EventLog.ts"
import { fromStore } from "./internal/fromStore.ts"
import type { LogStore } from "./internal/store.ts"

export interface MemoryOptions {
  /**
   * Partitions per topic (default 1, like the embedded log). More make tests exercise what the Kafka adapter does:
   * ordering only per key, one cursor per partition.
   */
  readonly partitions?: number
}

/** Envelopes are kept as JSON like the durable adapters keep them, so a reader never shares objects with a writer. */
interface MemoryRow extends Position {
  readonly key: string
  readonly envelopeJson: string
  readonly appendedAt: string
}

const storeKey = (...parts: ReadonlyArray<string | number>) => JSON.stringify(parts)

/** A log that lives as long as its layer: for unit tests of code that uses the port. */
export const makeMemory = (options: MemoryOptions = {}): Effect.Effect<EventLog["Service"]> =>
  Effect.suspend(() => {
    const partitions = new Map<string, Array<MemoryRow>>()
    const positionsById = new Map<string, Position>()
    const committed = new Map<string, number>()
    const rowsOf = (topic: string, partition: number) => {
      const key = storeKey(topic, partition)
      const rows = partitions.get(key) ?? []
      partitions.set(key, rows)
      return rows
    }

    const store: LogStore = {
      partitionCount: options.partitions ?? 1,
      // One synchronous block: nothing interleaves with it, which makes the call atomic and the offsets gapless.
      append: (records) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() =>
            records.map((record) => {
              const eventId = record.eventId.toLowerCase()
              const existing = positionsById.get(eventId)
              if (existing !== undefined) return existing
              const rows = rowsOf(record.topic, record.partition)
              const position: Position = { topic: record.topic, partition: record.partition, offset: rows.length }
              rows.push({
                ...position,
                key: record.key,
                envelopeJson: record.json,
                appendedAt: new Date(now).toISOString()
              })
              positionsById.set(eventId, position)
              return position
            })
          )),
      endOffset: (topic, partition) => Effect.sync(() => rowsOf(topic, partition).length),
      readBatch: (topic, partition, fromOffset, limit) =>
        Effect.sync(() =>
          rowsOf(topic, partition)
            .slice(fromOffset, fromOffset + limit)
            .map(({ envelopeJson, ...row }) => ({ ...row, envelope: JSON.parse(envelopeJson) }))
        ),
      committedOffset: (group, topic, partition) =>
        Effect.sync(() => committed.get(storeKey(group, topic, partition)) ?? 0),
      commit: (group, topic, partition, nextOffset) =>
        Effect.sync(() => void committed.set(storeKey(group, topic, partition), nextOffset))
    }
    return fromStore(store)
  })

export const layerMemory = (options: MemoryOptions = {}): Layer.Layer<EventLog> =>
  Layer.effect(EventLog, makeMemory(options))
