import { type RecordBatch, Table } from "apache-arrow"
import { Effect, type Stream } from "effect"
import { fromAsync, toAsyncIterable } from "../effectBridge.ts"
import type { TabularError } from "../TabularError.ts"
import { readBatches } from "./readBatches.ts"

/** Loads a whole normalised table (for profiling and training later). */
export const readTable = <E>(ipc: Stream.Stream<Uint8Array, E>): Effect.Effect<Table, TabularError | E> =>
  Effect.flatMap(Effect.context(), (runtime) =>
    fromAsync<Table, E>(async () => {
      const { schema, batches } = await readBatches(toAsyncIterable(ipc, runtime))
      const loaded: Array<RecordBatch> = []
      for await (const batch of batches) loaded.push(batch)
      return new Table(schema, loaded)
    })
  )
