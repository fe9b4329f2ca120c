import type { DomainEvent } from "@synth/contracts"
import type { EventContext, EventWriter } from "@synth/eventlog"
import { Array, Effect } from "effect"

/** Appends what a decider decided; a decision to do nothing appends nothing. */
export const appendDecided = (
  writer: EventWriter["Service"],
  events: ReadonlyArray<DomainEvent>,
  context: EventContext
): Effect.Effect<void> =>
  Array.isReadonlyArrayNonEmpty(events) ? Effect.asVoid(writer.append(events, context)) : Effect.void
