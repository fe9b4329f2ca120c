import { SqlClient } from "effect/sql"
import { consumedBy } from "@synth/contracts"
import { GeneratorJob } from "@synth/jobs"
import { type Projected, writeInWaves } from "@synth/sql"
import { Effect } from "effect"
import { asTheRowsShowIt, type LifecycleColumns, lifecycleOf } from "./lifecycle.ts"
import { type GeneratorEvent, rowWriters } from "./writeRows.ts"

const projected = consumedBy("generatorsProjection")

const isProjected = (candidate: Projected): candidate is Projected<GeneratorEvent> => projected(candidate.event)

/** The output dataset an event names: the job's, or a sample's. */
const outputOf = (event: GeneratorEvent): string | undefined =>
  "outputDatasetId" in event.payload ? event.payload.outputDatasetId : undefined

const sampleEventTypes: ReadonlySet<string> = new Set([
  "generator.sample-requested",
  "generator.sampled",
  "generator.sample-failed"
])

/** The job's row, by its id as the database spells a uuid (lower case). */
const jobOf = (event: GeneratorEvent) => event.payload.generatorId.toLowerCase()

/** The rows an event reads or writes: the generator's, and the output dataset's it names. */
const keysOf = (event: GeneratorEvent): ReadonlyArray<string> => {
  const output = outputOf(event)
  const job = `generator:${jobOf(event)}`
  return output === undefined ? [job] : [job, `output:${output.toLowerCase()}`]
}

interface SampleRow {
  readonly dataset_id: string
  readonly status: GeneratorJob.SampleStatus
}

/**
 * The lifecycle the rows keep of each job the batch names (one query), with the samples its sample events name
 * (one more): the state the decider's `applies` is asked of for a job's first event in the batch.
 */
const lifecyclesInRows = (events: ReadonlyArray<Projected<GeneratorEvent>>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = [...new Set(events.map(({ event }) => event.payload.generatorId))]
    const rows = yield* sql<LifecycleColumns>`
      SELECT id, status, attempts, phase FROM generators WHERE id = ANY(${ids}::uuid[])`
    const sampleEvents = events.filter(({ event }) => sampleEventTypes.has(event.type))
    const sampleIds = [...new Set(sampleEvents.map(({ event }) => outputOf(event)!))]
    const samples = sampleIds.length === 0 ? [] : yield* sql<SampleRow>`
      SELECT dataset_id, status FROM generator_outputs WHERE dataset_id = ANY(${sampleIds}::uuid[]) AND kind = 'sample'`
    const found = new Map(samples.map((sample) => [sample.dataset_id, sample.status]))
    // Keyed as the events name them: the decider looks a sample up by the event's id.
    const sampleStatuses = new Map(sampleIds.flatMap((id) => {
      const status = found.get(id.toLowerCase())
      return status === undefined ? [] : [[id, status] as const]
    }))
    return new Map(rows.map((row) => [row.id, lifecycleOf(row, sampleStatuses)]))
  })

/**
 * The events that change their job, in batch order. Whether an event counts is the decider's to say
 * (`GeneratorJob.applies`): the first outcome wins, only the running attempt reports, a redelivered or replayed
 * event that already counted changes nothing. A job's first event in the batch is asked against the lifecycle its
 * rows keep, each later one against the first folded by `GeneratorJob.evolve` with the events before it: the state
 * the rows would show after writing them, without reading them again.
 */
const countedEvents = (events: ReadonlyArray<Projected<GeneratorEvent>>) =>
  Effect.map(lifecyclesInRows(events), (states) =>
    events.filter(({ event }) => {
      const state = states.get(jobOf(event)) ?? GeneratorJob.initialState
      if (!GeneratorJob.applies(state, event)) return false
      states.set(jobOf(event), asTheRowsShowIt(GeneratorJob.evolve(state, event)))
      return true
    }))

/** Maps generator events onto `generators` and `generator_outputs`: the counted ones, many to a statement. */
export const applyGeneratorEvents = (events: ReadonlyArray<Projected>) =>
  Effect.gen(function* () {
    const generatorEvents = events.filter(isProjected)
    if (generatorEvents.length === 0) return
    yield* writeInWaves(yield* countedEvents(generatorEvents), keysOf, rowWriters)
  })
