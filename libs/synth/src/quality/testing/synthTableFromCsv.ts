/** Test helper: a CSV file → @synth/tabular's ingestion (the same typing as uploads) → SynthTable. */
import { ingestTable, readTable } from "@synth/tabular"
import { Effect, Result, Stream } from "effect"
import { readFileSync } from "node:fs"
import { synthTableFromArrow } from "../../arrow/synthTableFromArrow.ts"
import type { SynthTable } from "../../table.ts"

export const synthTableFromCsv = (path: string): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(path)))), ({ table }) => readTable(table)).pipe(
      Effect.map((table) => Result.getOrThrow(synthTableFromArrow(table)))
    )
  )
