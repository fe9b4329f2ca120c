import { layerFromConfig as BlobStoreLive } from "@synth/blobstore"
import { layerFromConfig as EventLogLive } from "@synth/eventlog"
import { dropEmbeddedDatabase, layerFromConfig as ReadModelsLive, ProjectorRuntime } from "@synth/sql"
import { SingleBar } from "cli-progress"
import { Console, DateTime, Effect, Layer, Option } from "effect"
import { usesEmbeddedReadModels } from "./config.ts"
import { ProjectorLive } from "./layers.ts"

/**
 * The embedded read-model database is deleted outright (a replay must not depend on anything it held). Built after
 * the event log, whose lock on DATA_DIR stops a replay while a server is running. With KAFKA_BROKERS and
 * DATABASE_URL (the distributed runtime) nothing is locked and nothing dropped: the replay runs beside the
 * gateways, whose projectors wait on the cursor rows it resets and then carry on from them.
 */
const DropEmbeddedReadModels = Layer.effectDiscard(
  Effect.gen(function* () {
    if (!(yield* usesEmbeddedReadModels)) return
    const directory = yield* dropEmbeddedDatabase
    yield* Console.log(`Deleted the read-model database in ${directory}.`)
  })
)

// The blob store holds the user keys: a forgotten user's registration finds none and projects to no account.
const freshReadSide = (dropDatabase: boolean) =>
  ProjectorLive.pipe(
    Layer.provideMerge(dropDatabase ? ReadModelsLive.pipe(Layer.provide(DropEmbeddedReadModels)) : ReadModelsLive),
    Layer.provide(BlobStoreLive),
    Layer.provideMerge(EventLogLive)
  )

/**
 * `synth replay`: re-applies the event log to the read models with a progress bar, then prints a summary.
 * - Without `from`: without names every read model is rebuilt from a new (embedded) database; with names only those
 *   projections are emptied and replayed.
 * - With `from` (a time): nothing is emptied or dropped. Every selected projection keeps its rows and re-applies the
 *   events that occurred at or after that time (per partition, from the first such event on) over them; events
 *   before it are not read again. The projections are idempotent to re-application, so this ends where a full
 *   rebuild would, after a projection fix that affects events from that time on, say.
 */
export const replay = (names: ReadonlyArray<string>, from: Option.Option<DateTime.Utc> = Option.none()) =>
  Effect.gen(function* () {
    const projector = yield* ProjectorRuntime
    const bar = new SingleBar({
      format: "replaying |{bar}| {value}/{total} events | {percentage}% | {eta_formatted} left",
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 1000
    })
    const selected = names.length === 0 ? undefined : names
    const onProgress = ({ applied, total }: { readonly applied: number; readonly total: number }) =>
      Effect.sync(() => {
        bar.setTotal(total)
        bar.update(applied)
      })
    if (Option.isSome(from)) yield* Console.log(`Replaying the events from ${DateTime.formatIso(from.value)} on, keeping the rows before.`)
    bar.start(0, 0)
    const summary = yield* Option.match(from, {
      onNone: () => projector.rebuild(selected, onProgress),
      onSome: (since) => projector.replayFrom(since, selected, onProgress)
    }).pipe(Effect.ensuring(Effect.sync(() => bar.stop())))
    const events = Object.values(summary.applied).reduce((sum, count) => sum + count, 0)
    const seconds = summary.durationMillis / 1000
    yield* Console.log(
      `Replayed ${events} events in ${seconds.toFixed(2)} s` +
        (seconds > 0 ? ` (${Math.round(events / seconds)} events/s)` : "") +
        "."
    )
    for (const [projection, count] of Object.entries(summary.applied)) {
      yield* Console.log(`  ${projection}: ${count} events`)
    }
  }).pipe(Effect.provide(freshReadSide(names.length === 0 && Option.isNone(from))))
