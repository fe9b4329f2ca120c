import { type DatasetId, type EventEnvelope, serviceActor } from "@synth/contracts"
import { BlobKey, BlobStore } from "@synth/blobstore"
import { eventHandler, EventWriter, outcomeContext, refuseOnDefect } from "@synth/eventlog"
import { Context, Data, Effect, Layer, Stream } from "effect"
import { profileResource } from "./masking.ts"

export const profilingActor = serviceActor("profiling")

/** Why a table gave no profile: the client's message (names columns, never values). */
class Unanalyzable extends Data.TaggedError("Unanalyzable")<{ readonly message: string }> {}

const retryAdvice = "Download the dataset, check it and upload it again."

// The profiler (@synth/stats, @synth/tabular with Arrow) loads with the first profile asked for, not at start.
const profiler = Effect.promise(() => Promise.all([import("@synth/stats"), import("@synth/tabular")]))

/**
 * Profiles datasets' normalised tables on request. Handlers are idempotent under redelivery: the outcome event's id
 * is derived from the request event (the log ignores a second append of the same id) and the profile blob is
 * overwritten whole with the same bytes (the profile is a function of the table). A table that cannot be read or
 * analyzed (corrupt, missing, an unsupported column type, a bug of the profiler on this very table) becomes
 * `dataset.profile-failed`; the blob store or the log failing fails the handler, so the request is redelivered.
 *
 * profile() is synchronous CPU work (about a second for 50 000 rows × 10 columns): in the embedded single process it
 * holds the event loop meanwhile. Acceptable at today's sizes; a worker thread is the way out if it is not.
 */
export class Profiling extends Context.Service<Profiling>()("@synth/profiling/Profiling", {
  make: Effect.gen(function* () {
    const blobs = yield* BlobStore
    const writer = yield* EventWriter

    const analyze = (datasetId: DatasetId, envelope: EventEnvelope) =>
      Effect.flatMap(profiler, ([stats, tabular]) =>
        tabular.readTable(blobs.get(BlobKey.make("datasets", datasetId, "table"))).pipe(
          Effect.flatMap((table) => Effect.fromResult(stats.profileInputFromArrow(table))),
          // Let other fibers (the gateway's requests in the embedded runtime) run before the synchronous work.
          Effect.tap(Effect.yieldNow),
          Effect.flatMap((input) => Effect.sync(() => profileResource(datasetId, stats.profile(input))))
        )).pipe(
        Effect.catchTags({
          TabularError: (error) =>
            Effect.fail(new Unanalyzable({ message: `The dataset's table could not be read (${error.message}). ${retryAdvice}` })),
          UnsupportedArrowField: (error) => Effect.fail(new Unanalyzable({ message: `${error.message} ${retryAdvice}` })),
          BlobNotFound: () =>
            Effect.fail(new Unanalyzable({ message: `The dataset's table is missing (deleted meanwhile?). ${retryAdvice}` }))
        }),
        // A defect here is a bug of the profiler on this very table: the request is refused.
        refuseOnDefect(envelope, "profiling failed on a bug; the request is refused", (loggedWith) =>
          new Unanalyzable({
            message: `The dataset could not be analyzed because of an internal error (${loggedWith}). ${retryAdvice}`
          }))
      )

    const profileDataset = Effect.fn("Profiling.profileDataset")(function* (datasetId: DatasetId, envelope: EventEnvelope) {
      const outcome = yield* analyze(datasetId, envelope).pipe(
        Effect.map((resource) => ({ _tag: "Analyzed" as const, resource })),
        Effect.catchTag("Unanalyzable", (refused) => Effect.succeed(refused))
      )
      if (outcome._tag === "Unanalyzable") {
        yield* writer.append(
          [
            {
              type: "dataset.profile-failed",
              version: 1,
              payload: { datasetId, reason: "unable_to_analyze", message: outcome.message }
            }
          ],
          outcomeContext(profilingActor, envelope)
        )
        return yield* Effect.logInfo("dataset not profiled", { datasetId })
      }
      const { resource } = outcome
      const key = BlobKey.make("datasets", datasetId, "profile")
      const stored = yield* blobs.put(key, Stream.make(new TextEncoder().encode(JSON.stringify(resource))))
      yield* writer.append(
        [
          {
            type: "dataset.profiled",
            version: 2,
            payload: {
              datasetId,
              profile: { blobKey: key, sha256: stored.sha256, size: stored.size },
              rowCount: resource.row_count,
              columnCount: resource.column_count,
              quality: {
                score: resource.data_quality_score,
                level: resource.data_quality.level,
                warningCount: resource.data_quality.warnings.length
              }
            }
          }
        ],
        outcomeContext(profilingActor, envelope)
      )
      return yield* Effect.logInfo("dataset profiled", {
        datasetId,
        rows: resource.row_count,
        columns: resource.column_count,
        score: resource.data_quality_score
      })
    })

    /** One event of the dataset topic; types this service does not react to are ignored. */
    const handle = eventHandler({ consumer: "profiling", span: "Profiling.handle", keyAnnotation: "datasetId" }, {
      "dataset.profile-requested": ({ payload }, stored) => profileDataset(payload.datasetId, stored.envelope),
      // A profile written while the deletion was on its way would outlive the dataset: the deletion comes after
      // the request on the dataset's partition, so removing the blobs here leaves nothing behind.
      "dataset.deleted": ({ payload }) => blobs.removePrefix(BlobKey.make("datasets", payload.datasetId))
    })

    return { handle } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
