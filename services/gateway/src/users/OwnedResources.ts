import { SqlClient } from "effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { rowsOf } from "../readModelRows.ts"

export interface Owned {
  /** Every dataset, uploaded or generated, in any state. */
  readonly datasets: ReadonlyArray<string>
  readonly generators: ReadonlyArray<{ readonly id: string; readonly running: boolean }>
  /** Samples still being drawn (their generator is completed; a sample cannot be cancelled). */
  readonly runningSamples: ReadonlyArray<{ readonly datasetId: string; readonly generatorId: string }>
  readonly evaluations: ReadonlyArray<{ readonly id: string; readonly running: boolean }>
}

const IdRow = Schema.Struct({ id: Schema.String })
const JobRow = Schema.Struct({ id: Schema.String, status: Schema.String })
const SampleRow = Schema.Struct({ datasetId: Schema.String, generatorId: Schema.String })

const datasetRows = rowsOf("datasets", IdRow)
const generatorRows = rowsOf("generators", JobRow)
const sampleRows = rowsOf("generator_outputs", SampleRow)
const evaluationRows = rowsOf("evaluations", JobRow)

/** Everything one user owns, across the read models: what forgetting the user deletes. */
export class OwnedResources extends Context.Service<OwnedResources>()("@synth/gateway/OwnedResources", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const of = Effect.fn("OwnedResources.of")(function* (ownerId: string) {
      const datasets = yield* datasetRows.all(yield* sql`SELECT id FROM datasets WHERE owner_id = ${ownerId} ORDER BY id`)
      const generators = yield* generatorRows.all(
        yield* sql`SELECT id, status FROM generators WHERE owner_id = ${ownerId} ORDER BY id`
      )
      const samples = yield* sampleRows.all(yield* sql`
        SELECT dataset_id AS "datasetId", generator_id AS "generatorId" FROM generator_outputs
        WHERE owner_id = ${ownerId} AND kind = 'sample' AND status = 'running' ORDER BY dataset_id`)
      const evaluations = yield* evaluationRows.all(
        yield* sql`SELECT id, status FROM evaluations WHERE owner_id = ${ownerId} ORDER BY id`
      )
      return {
        datasets: datasets.map((row) => row.id),
        generators: generators.map((row) => ({ id: row.id, running: row.status === "running" })),
        runningSamples: samples,
        evaluations: evaluations.map((row) => ({ id: row.id, running: row.status === "running" }))
      } satisfies Owned
    }, Effect.orDie)

    return { of } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
