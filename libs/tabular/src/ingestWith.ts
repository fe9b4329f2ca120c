import { Effect, type Stream } from "effect"
import { fromAsync, fromAsyncBytes, toAsyncIterable } from "./effectBridge.ts"
import type { IngestSummary } from "./infer/IngestSummary.ts"
import { type InferredTable, inferTable } from "./infer/inferTable.ts"
import { type BatchLimits, defaultBatchLimits, encodeTable } from "./normalise/encodeTable.ts"
import type { RecordStream } from "./records/RecordStream.ts"
import type { TabularError } from "./TabularError.ts"

/** Parses bytes into records: `openRecords` in production, a stand-in in tests. */
export type OpenRecords = (bytes: () => AsyncIterable<Uint8Array>) => Promise<RecordStream>

export interface IngestedTable<E> {
  readonly summary: IngestSummary
  /** Arrow IPC stream bytes of the normalised table; reads the file a second time when consumed. */
  readonly table: Stream.Stream<Uint8Array, TabularError | E>
}

/**
 * Two passes over the file so that memory never holds it: pass 1 (in the returned effect) infers each column's
 * type from counters; pass 2 (when `table` is consumed) reads it again and converts it batch by batch.
 */
export const ingestWith =
  (openRecords: OpenRecords, limits: BatchLimits = defaultBatchLimits) =>
  <E>(read: () => Stream.Stream<Uint8Array, E>): Effect.Effect<IngestedTable<E>, TabularError | E> =>
    Effect.gen(function* () {
      const runtime = yield* Effect.context()
      const inferred = yield* fromAsync<InferredTable, E>(async (signal) =>
        inferTable(await openRecords(() => toAsyncIterable(read(), runtime, signal)), signal)
      )
      const table = fromAsyncBytes<E>(async function* () {
        yield* encodeTable(await openRecords(() => toAsyncIterable(read(), runtime)), inferred, limits)
      })
      return { summary: inferred.summary, table }
    })
