import { layerEmbeddedConfig as EventLogLive } from "@synth/eventlog"
import { dropEmbeddedDatabase, layerFromConfig as ReadModelsLive, ProjectorRuntime } from "@synth/sql"
import { SingleBar } from "cli-progress"
import { Console, Effect, Layer } from "effect"
import { usesEmbeddedReadModels } from "./config.ts"
import { ProjectorLive } from "./layers.ts"

/**
 * The embedded read-model database is deleted outright (a replay must not depend on anything it held). Built after
 * the event log, whose lock on DATA_DIR stops a replay while a server is running.
 */
const DropEmbeddedReadModels = Layer.effectDiscard(
  Effect.gen(function* () {
    if (!(yield* usesEmbeddedReadModels)) return
    const directory = yield* dropEmbeddedDatabase
    yield* Console.log(`Deleted the read-model database in ${directory}.`)
  })
)

const freshReadSide = (dropDatabase: boolean) =>
  ProjectorLive.pipe(
    Layer.provideMerge(dropDatabase ? ReadModelsLive.pipe(Layer.provide(DropEmbeddedReadModels)) : ReadModelsLive),
    Layer.provideMerge(EventLogLive)
  )

/**
 * `synth replay`: rebuilds read models from the event log with a progress bar, then prints a summary.
 * Without names every read model is rebuilt from a new database; with names only those projections are emptied
 * and replayed.
 */
export const replay = (names: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const projector = yield* ProjectorRuntime
    const bar = new SingleBar({
      format: "replaying |{bar}| {value}/{total} events | {percentage}% | {eta_formatted} left",
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 1000
    })
    bar.start(0, 0)
    const summary = yield* projector
      .rebuild(names.length === 0 ? undefined : names, ({ applied, total }) =>
        Effect.sync(() => {
          bar.setTotal(total)
          bar.update(applied)
        })
      )
      .pipe(Effect.ensuring(Effect.sync(() => bar.stop())))
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
  }).pipe(Effect.provide(freshReadSide(names.length === 0)))
