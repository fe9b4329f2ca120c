/**
 * Child process of the projector's kill -9 test on Kafka. It runs the projector runtime with one projection that
 * counts events per aggregate, deliberately not idempotent by itself (an increment): only the cursor, stored in the
 * same transaction as the counts, keeps an event from counting twice after a crash.
 *
 *   follow: projects until killed, writing "applied" to stdout inside every apply, before its transaction commits
 *   report: applies everything up to the end of the log, prints {aggregateId: count} as JSON and exits
 *
 * The log and the read-model database come from the environment, as in the services: KAFKA_BROKERS and
 * KAFKA_TOPIC_PREFIX; DATABASE_URL, or DATA_DIR for the embedded database.
 */
import { SqlClient } from "effect/sql"
import { Topics } from "@synth/contracts"
import { layerFromConfig as eventLogFromConfig } from "@synth/eventlog"
import { Effect, Layer } from "effect"
import { layerFromConfig as databaseFromConfig } from "../database/config.ts"
import { layerMigrations, migrationSet } from "../migrations/migrations.ts"
import { ProjectorRuntime } from "../projector/ProjectorRuntime.ts"
import { makeProjection } from "../projector/Projection.ts"

const mode = process.argv[2]
if (mode !== "follow" && mode !== "report") throw new Error("usage: projectUntilKilled.ts follow|report")

const countsMigrations = migrationSet("kill_test", {
  "0001_counts": Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`CREATE TABLE kill_test_counts (aggregate_id text PRIMARY KEY, events integer NOT NULL)`
  )
})

const countsPerAggregate = makeProjection({
  name: "kill_test_counts",
  topics: [Topics.user.name],
  tables: ["kill_test_counts"],
  apply: (_event, meta) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO kill_test_counts (aggregate_id, events) VALUES (${meta.key}, 1)
        ON CONFLICT (aggregate_id) DO UPDATE SET events = kill_test_counts.events + 1`
      // A pipe on Linux is written synchronously: the line is out before the transaction goes on.
      process.stdout.write("applied\n")
    })
})

const environment = ProjectorRuntime.layer([countsPerAggregate]).pipe(
  Layer.provideMerge(layerMigrations([countsMigrations])),
  Layer.provideMerge(Layer.merge(databaseFromConfig, eventLogFromConfig))
)

const follow = Effect.flatMap(ProjectorRuntime, (projector) => projector.run).pipe(Effect.andThen(Effect.never))

const report = Effect.gen(function*() {
  yield* Effect.flatMap(ProjectorRuntime, (projector) => projector.catchUp())
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly aggregate_id: string; readonly events: number }>`
    SELECT aggregate_id, events FROM kill_test_counts`
  process.stdout.write(`${JSON.stringify(Object.fromEntries(rows.map((row) => [row.aggregate_id, row.events])))}\n`)
})

const program: Effect.Effect<void, unknown, ProjectorRuntime | SqlClient.SqlClient> = mode === "follow"
  ? Effect.scoped(follow)
  : report

Effect.runPromise(program.pipe(Effect.provide(environment))).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
