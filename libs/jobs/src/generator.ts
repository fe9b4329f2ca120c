import type { DatasetId, DomainEventOf, GeneratorId } from "@synth/contracts"
import { Data, Result } from "effect"

/**
 * The generator aggregate (one generation job and the samples drawn from its model) as a decider:
 * `decide(command, state)` returns the events to append or a refusal; `evolve(state, event)` folds events into
 * state. Pure: time, the worker's name and what happened to a local worker come in with the command.
 *
 * Life of a job: requested → started (attempt 1) → progressed… → completed | failed | cancelled. The first
 * outcome wins: the log may hold a later one (two instances decided at once), and it changes nothing. A started
 * job whose worker went silent is requeued as the next attempt until the attempts run out, then failed.
 */

export type Event = DomainEventOf<
  | "generator.requested"
  | "generator.started"
  | "generator.prepared"
  | "generator.progressed"
  | "generator.completed"
  | "generator.failed"
  | "generator.cancel-requested"
  | "generator.cancelled"
  | "generator.requeued"
  | "generator.sample-requested"
  | "generator.sampled"
  | "generator.sample-failed"
  | "generator.deleted"
>

/** A sample the owner asks of the trained model: the event's payload but the generator's id. */
export type SampleRequest = Omit<DomainEventOf<"generator.sample-requested">["payload"], "generatorId">

/** What the owner asked for: the parameters every attempt of the job trains with. */
export type RequestedGeneration = DomainEventOf<"generator.requested">["payload"]

export type Status = "running" | "completed" | "failed" | "cancelled"
export type SampleStatus = "running" | "completed" | "failed"

/** A job the log knows. */
export interface Job {
  readonly status: Status
  readonly generatorId: GeneratorId
  /** The latest attempt started or requeued; 0 before the first start. */
  readonly attempt: number
  /** Whether `attempt` has started (false while it waits for a worker). */
  readonly started: boolean
  readonly cancelRequested: boolean
  /** The stored model's blob key once completed. */
  readonly modelBlobKey: string | null
  /** Every sample asked of the model, by its output dataset id. */
  readonly samples: ReadonlyMap<string, SampleStatus>
}

export type State = { readonly status: "absent" } | { readonly status: "deleted" } | Job

export const initialState: State = { status: "absent" }

export const isJob = (state: State): state is Job => state.status !== "absent" && state.status !== "deleted"

export type Command =
  /** The owner asks to stop the job (the gateway). */
  | { readonly _tag: "RequestCancel" }
  /** A generation instance takes attempt `attempt` (the dispatcher, and the runner again once a slot is free). */
  | { readonly _tag: "Start"; readonly attempt: number; readonly worker: string }
  /**
   * A cancel request reached a generation instance: `interruptedAttempt` is the attempt it stopped in its own
   * process, null when the job ran nowhere here.
   */
  | { readonly _tag: "Cancel"; readonly interruptedAttempt: number | null }
  /** The watchdog: no heartbeat came from the job's worker for `stallTimeout` (a crashed process). */
  | { readonly _tag: "DeclareWorkerLost"; readonly maxAttempts: number; readonly stallTimeout: string }
  /** The process running `attempt` shuts down and gives the job back, so that another one starts it at once. */
  | { readonly _tag: "HandBack"; readonly attempt: number }
  /** The owner asks for rows from the trained model (the gateway): the request, as the event will carry it. */
  | { readonly _tag: "RequestSample"; readonly request: SampleRequest }
  /** The dispatcher is about to draw a requested sample: `[]` means draw it. */
  | { readonly _tag: "StartSample"; readonly outputDatasetId: DatasetId }

/**
 * The event types each command may decide. scripts/eventCatalog reads it to check who appends what: a service that
 * issues a command appends what the command decides. The decider's tests hold every decision to this table.
 */
export const decidedTypes = {
  RequestCancel: ["generator.cancel-requested"],
  RequestSample: ["generator.sample-requested"],
  Start: ["generator.started"],
  Cancel: ["generator.cancelled"],
  DeclareWorkerLost: ["generator.requeued", "generator.failed", "generator.cancelled"],
  HandBack: ["generator.requeued", "generator.cancelled"],
  StartSample: ["generator.sample-failed"]
} as const satisfies Record<Command["_tag"], ReadonlyArray<Event["type"]>>

/** No job with this id: never requested, or deleted. */
export class GeneratorUnknown extends Data.TaggedError("GeneratorUnknown")<{}> {}
/** The job has ended: there is nothing to stop. */
export class GeneratorSettled extends Data.TaggedError("GeneratorSettled")<{ readonly status: Status }> {}
/** The attempt is not this instance's to start: the job ended, a cancel was asked, or the attempt is not the next. */
export class AttemptNotStartable extends Data.TaggedError("AttemptNotStartable")<{ readonly reason: string }> {}
/** Rows come only from a completed job's model. */
export class GeneratorNotCompleted extends Data.TaggedError("GeneratorNotCompleted")<{ readonly status: Status }> {}
/** The sample was drawn or failed already (a redelivered request). */
export class SampleNotPending extends Data.TaggedError("SampleNotPending")<{}> {}

export type Refusal = GeneratorUnknown | GeneratorSettled | GeneratorNotCompleted | AttemptNotStartable | SampleNotPending

type Decision = Result.Result<ReadonlyArray<Event>, Refusal>

const nothing: Decision = Result.succeed([])

const cancelled = (job: Job, attempt: number | null): Decision =>
  Result.succeed([{ type: "generator.cancelled", version: 1, payload: { generatorId: job.generatorId, attempt } }])

/** `lost`: the attempt that stopped; the job starts again as the next one. */
const requeued = (job: Job, lost: number, message: string): Decision =>
  Result.succeed([{
    type: "generator.requeued",
    version: 1,
    payload: { generatorId: job.generatorId, attempt: lost + 1, message }
  }])

/** The attempt a dispatcher may start now: the first, or the one the job was requeued as; none once it started. */
const startable = (job: Job): number | null => (job.started ? null : Math.max(1, job.attempt))

export const decide = (command: Command, state: State): Decision => {
  if (!isJob(state)) return Result.fail(new GeneratorUnknown())
  const job = state
  switch (command._tag) {
    case "RequestCancel":
      return job.status === "running"
        ? Result.succeed([{
          type: "generator.cancel-requested",
          version: 1,
          payload: { generatorId: job.generatorId }
        }])
        : Result.fail(new GeneratorSettled({ status: job.status }))
    case "Start": {
      if (job.status !== "running") return Result.fail(new AttemptNotStartable({ reason: `the job is ${job.status}` }))
      if (job.cancelRequested) return Result.fail(new AttemptNotStartable({ reason: "its owner asked to cancel it" }))
      if (startable(job) !== command.attempt) {
        const reason = job.started ? `attempt ${job.attempt} has started` : `the next attempt is ${startable(job)}`
        return Result.fail(new AttemptNotStartable({ reason }))
      }
      return Result.succeed([{
        type: "generator.started",
        version: 1,
        payload: { generatorId: job.generatorId, attempt: command.attempt, worker: command.worker }
      }])
    }
    case "Cancel":
      if (job.status !== "running") return nothing
      if (command.interruptedAttempt !== null) return cancelled(job, command.interruptedAttempt)
      // A job started elsewhere is that instance's to stop (or the watchdog's, if that instance is gone).
      if (job.started) return nothing
      return cancelled(job, job.attempt === 0 ? null : job.attempt)
    case "DeclareWorkerLost":
      if (job.status !== "running" || !job.started) return nothing
      if (job.cancelRequested) return cancelled(job, job.attempt)
      if (job.attempt < command.maxAttempts) {
        return requeued(job, job.attempt, `No heartbeat from the worker of attempt ${job.attempt} for ` +
          `${command.stallTimeout}: started again as attempt ${job.attempt + 1}.`)
      }
      return Result.succeed([{
        type: "generator.failed",
        version: 1,
        payload: {
          generatorId: job.generatorId,
          attempt: job.attempt,
          reason: "worker_lost",
          message: `The worker running this job was lost ${job.attempt} times ` +
            `(no heartbeat for ${command.stallTimeout}). Start a new generation; if it happens again, use fewer rows.`
        }
      }])
    case "HandBack":
      // The state may not show the attempt's start yet (it was appended just before the shutdown): that attempt
      // is still the job's; a later one is not this process's to hand back.
      if (job.status !== "running" || job.attempt > command.attempt) return nothing
      if (job.cancelRequested) return cancelled(job, command.attempt)
      return requeued(job, command.attempt, `The process running attempt ${command.attempt} shut down: ` +
        `started again as attempt ${command.attempt + 1}.`)
    case "RequestSample":
      return job.status === "completed"
        ? Result.succeed([{
          type: "generator.sample-requested",
          version: 1,
          payload: { generatorId: job.generatorId, ...command.request }
        }])
        : Result.fail(new GeneratorNotCompleted({ status: job.status }))
    case "StartSample": {
      if (job.samples.get(command.outputDatasetId) !== "running") return Result.fail(new SampleNotPending())
      if (job.modelBlobKey !== null) return nothing
      return Result.succeed([{
        type: "generator.sample-failed",
        version: 1,
        payload: {
          generatorId: job.generatorId,
          outputDatasetId: command.outputDatasetId,
          reason: "training_failed",
          message: "The generator has no stored model to sample from."
        }
      }])
    }
  }
}

/**
 * Whether the event counts for the job in this state: false for a second request of an id, anything an attempt
 * reports after the job's outcome (the first outcome wins), a start or requeue of an attempt that is not newer, a
 * report of an attempt that is not the one running, and a sample's second outcome. `evolve` folds only what
 * counts, and a read model applies only what counts, so both show the same job.
 */
export const applies = (state: State, event: Event): boolean => {
  if (event.type === "generator.requested") return state.status === "absent"
  if (event.type === "generator.deleted") return true
  if (!isJob(state)) return false
  switch (event.type) {
    case "generator.cancel-requested":
      return true
    case "generator.sample-requested":
      return !state.samples.has(event.payload.outputDatasetId)
    case "generator.sampled":
    case "generator.sample-failed":
      return state.samples.get(event.payload.outputDatasetId) === "running"
    case "generator.started":
      return state.status === "running" &&
        (event.payload.attempt > state.attempt || (event.payload.attempt === state.attempt && !state.started))
    case "generator.requeued":
      return state.status === "running" && event.payload.attempt > state.attempt
    case "generator.prepared":
    case "generator.progressed":
      return state.status === "running" && state.started && event.payload.attempt === state.attempt
    case "generator.completed":
    case "generator.failed":
    case "generator.cancelled":
      return state.status === "running"
  }
}

export const evolve = (state: State, event: Event): State => {
  if (!applies(state, event)) return state
  if (event.type === "generator.requested") {
    return {
      status: "running",
      generatorId: event.payload.generatorId,
      attempt: 0,
      started: false,
      cancelRequested: false,
      modelBlobKey: null,
      samples: new Map()
    }
  }
  if (event.type === "generator.deleted" || !isJob(state)) return { status: "deleted" }
  switch (event.type) {
    case "generator.cancel-requested":
      return { ...state, cancelRequested: true }
    case "generator.sample-requested":
      return withSample(state, event.payload.outputDatasetId, "running")
    case "generator.sampled":
      return withSample(state, event.payload.outputDatasetId, "completed")
    case "generator.sample-failed":
      return withSample(state, event.payload.outputDatasetId, "failed")
    case "generator.started":
      return { ...state, attempt: event.payload.attempt, started: true }
    case "generator.requeued":
      return { ...state, attempt: event.payload.attempt, started: false }
    case "generator.prepared":
    case "generator.progressed":
      return state
    case "generator.completed":
      return { ...state, status: "completed", modelBlobKey: event.payload.model.blobKey }
    case "generator.failed":
      return { ...state, status: "failed" }
    case "generator.cancelled":
      return { ...state, status: "cancelled" }
  }
}

const withSample = (job: Job, outputDatasetId: string, status: SampleStatus): Job => ({
  ...job,
  samples: new Map(job.samples).set(outputDatasetId, status)
})
