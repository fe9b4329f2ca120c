import type { Position } from "@synth/eventlog"
import { Data } from "effect"

/** A position of the log as one projection must see it. */
export interface ProjectionPosition {
  readonly projection: string
  readonly position: Position
}

/** `waitFor` ran out of time: these projections had not applied these positions yet. */
export class ProjectionTimeout extends Data.TaggedError("ProjectionTimeout")<{
  readonly pending: ReadonlyArray<ProjectionPosition>
}> {
  override get message() {
    const lagging = this.pending.map(({ position, projection }) =>
      `${projection} at ${position.topic}/${position.partition}@${position.offset}`
    )
    return `Read models did not catch up in time: ${lagging.join(", ")}`
  }
}

/** A projection failed on a batch of events; the batch was rolled back and its cursor did not move. */
export class ProjectionFailed extends Data.TaggedError("ProjectionFailed")<{
  readonly projection: string
  readonly topic: string
  readonly partition: number
  readonly cause: unknown
}> {
  override get message() {
    return `Projection ${this.projection} failed on ${this.topic}/${this.partition}: ${String(this.cause)}`
  }
}

export class UnknownProjection extends Data.TaggedError("UnknownProjection")<{
  readonly names: ReadonlyArray<string>
  readonly known: ReadonlyArray<string>
}> {
  override get message() {
    return `No projection named ${this.names.join(", ")}; known projections: ${this.known.join(", ")}`
  }
}
