import { AlreadyFinished, GeneratorId, NotCompleted, NotFound } from "@synth/contracts"
import { GeneratorJob } from "@synth/jobs"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { Array, Effect, Result } from "effect"
import type { GeneratorRow } from "./GeneratorRepository.ts"

/** What the read model keeps of a job's lifecycle. */
export type LifecycleColumns = Pick<GeneratorRow, "id" | "status" | "attempts" | "phase">

/**
 * The job's lifecycle (the decider's state) as the read model keeps it, for the owner's commands and for the
 * projection. `attempts` is the latest attempt started; a running job queued again after a start was requeued, as
 * the next attempt (a requeue always names the attempt after the one that started). The row keeps no cancel request
 * and no model key: the commands here do not ask them, the generation service's own state holds them. The
 * samples are those the caller read (the projection reads the one an event names).
 */
export const lifecycleOf = (
  row: LifecycleColumns,
  samples: ReadonlyMap<string, GeneratorJob.SampleStatus> = new Map()
): GeneratorJob.State => {
  const requeued = row.status === "running" && row.phase === "queued" && row.attempts > 0
  return {
    status: row.status,
    generatorId: GeneratorId.make(row.id),
    attempt: requeued ? row.attempts + 1 : row.attempts,
    started: row.attempts > 0 && !requeued,
    cancelRequested: false,
    modelBlobKey: null,
    samples
  }
}

/**
 * The decider's state after an event as the rows show it: a deleted job's rows are gone, so it reads as never
 * requested, and the projection folds a batch from the state its rows would show after each event.
 */
export const asTheRowsShowIt = (state: GeneratorJob.State): GeneratorJob.State =>
  state.status === "deleted" ? GeneratorJob.initialState : state

const notYours = (id: string) =>
  new NotFound({
    detail: `There is no generator ${JSON.stringify(id.slice(0, 64))} among yours. List them with GET /generators/.`
  })

/** A refusal no owner's command can meet: a bug in the decider or here. */
const unexpected = (refusal: GeneratorJob.Refusal) =>
  Effect.die(new Error(`the gateway takes no command that is refused with ${refusal._tag}`))

/** Decides an owner's command on the generator's row: the events to commit, or the problem `problemOf` answers. */
const decideOnRow = <E>(
  command: GeneratorJob.Command,
  row: GeneratorRow,
  problemOf: (refusal: GeneratorJob.Refusal) => Effect.Effect<never, E>
) =>
  Result.match(GeneratorJob.decide(command, lifecycleOf(row)), {
    onFailure: problemOf,
    onSuccess: (events) =>
      Array.isReadonlyArrayNonEmpty(events)
        ? Effect.succeed<NonEmptyReadonlyArray<GeneratorJob.Event>>(events)
        : Effect.die(new Error(`${command._tag} decided nothing for generator ${row.id}`))
  })

/** POST /generators/{id}/cancel; `id` as the client wrote it, for the detail. */
export const decideCancel = (row: GeneratorRow, id: string) =>
  decideOnRow({ _tag: "RequestCancel" }, row, (refusal): Effect.Effect<never, AlreadyFinished | NotFound> => {
    switch (refusal._tag) {
      case "GeneratorSettled":
        return Effect.fail(new AlreadyFinished({ detail: `Generator ${id} is ${refusal.status}: there is nothing to cancel.` }))
      case "GeneratorUnknown":
        return Effect.fail(notYours(id))
      default:
        return unexpected(refusal)
    }
  })

/** POST /generators/{id}/sample. */
export const decideSample = (request: GeneratorJob.SampleRequest, row: GeneratorRow, id: string) =>
  decideOnRow({ _tag: "RequestSample", request }, row, (refusal): Effect.Effect<never, NotCompleted | NotFound> => {
    switch (refusal._tag) {
      case "GeneratorNotCompleted":
        return Effect.fail(new NotCompleted({
          detail: `Generator ${id} is ${refusal.status}; rows can be drawn only from a completed generator.`
        }))
      case "GeneratorUnknown":
        return Effect.fail(notYours(id))
      default:
        return unexpected(refusal)
    }
  })
