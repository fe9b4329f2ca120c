import type { EventLog } from "@synth/eventlog"
import { Clock, Effect } from "effect"
import { cursorKey, type Cursors } from "./cursors.ts"
import type { DrainPartition } from "./drainPartition.ts"
import type { AnyProjection } from "./Projection.ts"

export interface CatchUpProgress {
  /** Events applied so far, over all projections and partitions. */
  readonly applied: number
  /** Events between the cursors and the end offsets seen when the catch-up started. */
  readonly total: number
}

export interface CatchUpSummary {
  /** Events applied per projection name. */
  readonly applied: Readonly<Record<string, number>>
  readonly durationMillis: number
}

export type OnProgress = (progress: CatchUpProgress) => Effect.Effect<void>

/** Applies every partition of the projections' topics up to the end offsets seen at the start, then stops. */
export const makeCatchUp = (log: EventLog["Service"], cursors: Cursors, drainPartition: DrainPartition) =>
  Effect.fn("ProjectorRuntime.catchUp")(function*(
    projections: ReadonlyArray<AnyProjection>,
    onProgress: OnProgress
  ) {
    const startedAt = yield* Clock.currentTimeMillis
    const perTopic = yield* Effect.forEach(
      projections.flatMap((projection) => projection.topics.map((topic) => ({ projection, topic }))),
      ({ projection, topic }) =>
        Effect.map(log.endOffsets(topic), (ends) =>
          ends.map((end) => ({ projection, key: cursorKey(projection.name, topic, end.partition), until: end.offset }))),
      { concurrency: "unbounded" }
    )
    const targets = perTopic.flat()
    const starts = yield* Effect.forEach(targets, ({ key }) => Effect.orDie(cursors.get(key)))
    const total = targets.reduce((sum, { until }, index) => sum + Math.max(0, until - (starts[index] ?? 0)), 0)

    const applied: Record<string, number> = Object.fromEntries(projections.map((projection) => [projection.name, 0]))
    let appliedTotal = 0
    yield* onProgress({ applied: 0, total })
    // Projections side by side (PostgreSQL overlaps their round trips; the embedded database's one connection takes
    // their transactions in turn), each projection's partitions one after another, so a projection's rows come back
    // in the same order on every replay (the audit feed's positions among them).
    yield* Effect.forEach(
      projections,
      (projection) =>
        Effect.forEach(
          targets.filter((target) => target.projection === projection),
          ({ key, until }) =>
            drainPartition({
              projection,
              key,
              until,
              onBatch: (count) => {
                applied[projection.name] = (applied[projection.name] ?? 0) + count
                appliedTotal += count
                return onProgress({ applied: appliedTotal, total })
              }
            }),
          { discard: true }
        ),
      { concurrency: "unbounded", discard: true }
    )
    const finishedAt = yield* Clock.currentTimeMillis
    return { applied, durationMillis: finishedAt - startedAt } satisfies CatchUpSummary
  })
