import type { DomainEvent } from "@synth/contracts"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { Effect } from "effect"
import type { Projected } from "./Projection.ts"

/**
 * Splits a batch into waves, each event in the wave after the last one holding an earlier event that shares one of
 * its keys. Keys name the rows an event reads or writes: events that share one keep their order, one wave after
 * another, and the events of one wave touch different rows, so they can be written together, in any order.
 */
export const waves = <A>(
  items: ReadonlyArray<A>,
  keysOf: (item: A) => ReadonlyArray<string>
): ReadonlyArray<ReadonlyArray<A>> => {
  const lastWaveOf = new Map<string, number>()
  const result: Array<Array<A>> = []
  for (const item of items) {
    const keys = keysOf(item)
    const wave = keys.reduce((latest, key) => Math.max(latest, (lastWaveOf.get(key) ?? -1) + 1), 0)
    for (const key of keys) lastWaveOf.set(key, wave)
    ;(result[wave] ??= []).push(item)
  }
  return result
}

/** The events of one type, in batch order, for the statement that writes them all. */
export type EventsOf<Event extends DomainEvent, T extends Event["type"]> = NonEmptyReadonlyArray<
  Projected<Extract<Event, { readonly type: T }>>
>

/** One writer per event type: it writes all the events of its type in a wave, with one statement or a few. */
export type Writers<Event extends DomainEvent, E, R> = {
  readonly [T in Event["type"]]: (events: EventsOf<Event, T>) => Effect.Effect<unknown, E, R>
}

/** The events grouped by type, the groups in the order their first event comes. */
const byType = <Event extends DomainEvent>(events: ReadonlyArray<Projected<Event>>) => {
  const groups = new Map<Event["type"], Array<Projected<Event>>>()
  for (const projected of events) {
    const group = groups.get(projected.event.type)
    if (group === undefined) groups.set(projected.event.type, [projected])
    else group.push(projected)
  }
  return groups
}

/**
 * Writes a batch with one statement per event type and wave instead of a few per event. The rows come out as
 * applying the events one by one would leave them as long as `keysOf` names every row an event's statements read or
 * write (events with no key in common must commute), spelled as the database compares them (a uuid in lower case):
 * the order between events that share a row is kept, and no multi-row statement meets one row twice.
 */
export const writeInWaves = <Event extends DomainEvent, E, R>(
  events: ReadonlyArray<Projected<Event>>,
  keysOf: (event: Event) => ReadonlyArray<string>,
  writers: Writers<Event, E, R>
): Effect.Effect<void, E, R> =>
  Effect.forEach(
    waves(events, (projected) => keysOf(projected.event)),
    (wave) =>
      Effect.forEach(
        byType(wave),
        ([type, group]) =>
          // The group holds events of `type` only; TypeScript cannot tie the writer's parameter to the key.
          (writers[type] as (group: ReadonlyArray<Projected<Event>>) => Effect.Effect<unknown, E, R>)(group),
        { discard: true }
      ),
    { discard: true }
  )
