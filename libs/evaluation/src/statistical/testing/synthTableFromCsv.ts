/** Test helper: a CSV file → @synth/tabular's ingestion (the typing uploads get) → SynthTable. */
import { synthTableFromArrow, type SynthTable } from "@synth/synth"
import { ingestTable, readTable } from "@synth/tabular"
import { Effect, Result, Stream } from "effect"
import { readFileSync } from "node:fs"

export const synthTableFromCsv = (path: string): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(path)))), ({ table }) => readTable(table)).pipe(
      Effect.map((table) => Result.getOrThrow(synthTableFromArrow(table)))
    )
  )
