import type { DomainEventOf, GeneratorId } from "@synth/contracts"
import { Clock, Duration, Effect, Fiber, Queue, Ref, Schedule } from "effect"
import type { Report } from "../worker/runInWorker.ts"
import { applyReport, initialProgress } from "./progress.ts"

export type ProgressEvent = DomainEventOf<"generator.prepared" | "generator.progressed">

export interface ProgressEventsOptions {
  readonly generatorId: GeneratorId
  readonly attempt: number
  /** The model's epochs (null where it has none): epoch reports move the progress by them. */
  readonly epochs: number | null
  /** A progress event goes out at least this often while the job runs: the heartbeat of a live worker. */
  readonly heartbeat: Duration.Input
  /** `generator.prepared` once (ids derived from the cause), `generator.progressed` as often as it is due (fresh ids). */
  readonly append: (event: ProgressEvent) => Effect.Effect<void>
}

/**
 * Runs `run` with a report callback for its worker and appends progress events meanwhile: on change at most once a
 * second, and a heartbeat every `heartbeat` regardless. The worker calls back outside any fiber, so its reports
 * queue up and are folded in when the next event is due; a last one says what changed since, without a heartbeat.
 */
export const withProgressEvents = <A, E, R>(
  options: ProgressEventsOptions,
  run: (onReport: (report: Report) => void) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    const { attempt, generatorId } = options
    const reports = yield* Queue.unbounded<Report>()
    const progress = yield* Ref.make(initialProgress)
    const lastSent = yield* Ref.make(yield* Clock.currentTimeMillis)
    const tick = (final: boolean) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const arrived = yield* Queue.clear(reports)
        const current = arrived.reduce(applyReport(options.epochs), yield* Ref.get(progress))
        if (current.prepared !== null) {
          yield* options.append({ type: "generator.prepared", version: 1, payload: { generatorId, attempt, ...current.prepared } })
        }
        const due = current.dirty || (!final && now - (yield* Ref.get(lastSent)) >= Duration.toMillis(options.heartbeat))
        yield* Ref.set(progress, due ? { ...current, prepared: null, losses: [], dirty: false } : { ...current, prepared: null })
        if (!due) return
        yield* Ref.set(lastSent, now)
        yield* options.append({
          type: "generator.progressed",
          version: 1,
          payload: { generatorId, attempt, phase: current.phase, progress: current.progress, losses: current.losses }
        })
      })
    const ticking = yield* Effect.forkChild(Effect.repeat(tick(false), Schedule.spaced("1 second")))
    const result = yield* Effect.ensuring(run((report) => void Queue.offerUnsafe(reports, report)), Fiber.interrupt(ticking))
    yield* tick(true)
    return result
  })
