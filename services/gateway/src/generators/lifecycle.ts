import { AlreadyFinished, type GeneratorId, NotFound } from "@synth/contracts"
import { GeneratorJob } from "@synth/jobs"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { Array, Effect, Result } from "effect"
import type { GeneratorRow } from "./GeneratorRepository.ts"

/**
 * The job's lifecycle as the gateway's read model shows it, for the owner's commands: their rules look at the
 * status alone. The row keeps no cancel request and no model key, which the generation service's own state holds.
 */
export const lifecycleOf = (row: GeneratorRow): GeneratorJob.State => ({
  status: row.status,
  generatorId: row.id as GeneratorId,
  attempt: row.attempts,
  started: row.status === "running" && row.phase !== "queued",
  cancelRequested: false,
  modelBlobKey: null,
  samples: new Map()
})

/** The problem a refusal answers; `id` as the client wrote it, for the detail. */
const problemOf = (id: string, refusal: GeneratorJob.Refusal) => {
  switch (refusal._tag) {
    case "GeneratorSettled":
      return Effect.fail(new AlreadyFinished({ detail: `Generator ${id} is ${refusal.status}: there is nothing to cancel.` }))
    case "GeneratorUnknown":
      return Effect.fail(new NotFound({
        detail: `There is no generator ${JSON.stringify(id.slice(0, 64))} among yours. List them with GET /generators/.`
      }))
    case "AttemptNotStartable":
    case "SampleNotPending":
      return Effect.die(new Error(`the gateway takes no command that is refused with ${refusal._tag}`))
  }
}

/** Decides an owner's command on the generator's row: the events to commit, or the problem to answer. */
export const decideOnRow = (command: GeneratorJob.Command, row: GeneratorRow, id: string) =>
  Result.match(GeneratorJob.decide(command, lifecycleOf(row)), {
    onFailure: (refusal) => problemOf(id, refusal),
    onSuccess: (events) =>
      Array.isReadonlyArrayNonEmpty(events)
        ? Effect.succeed<NonEmptyReadonlyArray<GeneratorJob.Event>>(events)
        : Effect.die(new Error(`${command._tag} decided nothing for generator ${row.id}`))
  })
