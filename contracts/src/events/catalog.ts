import { Effect, ParseResult, Schema } from "effect"
import type { EventEnvelope } from "../envelope.ts"
import { datasetEvents } from "./dataset.ts"
import { generatorEvents } from "./generator.ts"
import { userEvents } from "./user.ts"

/** Every published event definition. docs/events.md is generated from this list. */
export const eventCatalog = [...userEvents, ...datasetEvents, ...generatorEvents] as const

export const DomainEvent = Schema.Union(...eventCatalog.map((definition) => definition.schema))
export type DomainEvent = typeof DomainEvent.Type
export type DomainEventType = DomainEvent["type"]
export type DomainEventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>

const byTypeAndVersion = new Map<string, (typeof eventCatalog)[number]>(
  eventCatalog.map((definition) => [`${definition.type}@${definition.version}`, definition])
)

export const topicOf = (type: DomainEventType) => {
  const definition = eventCatalog.find((candidate) => candidate.type === type)
  if (definition === undefined) throw new Error(`event type ${type} is not in the catalog`)
  return definition.topic
}

export class UnknownEventType extends Schema.TaggedError<UnknownEventType>()("UnknownEventType", {
  type: Schema.String,
  version: Schema.Number
}) {}

/** Decodes the payload of a stored envelope against the schema registered for its type and version. */
export const decodeDomainEvent = (
  envelope: EventEnvelope
): Effect.Effect<DomainEvent, UnknownEventType | ParseResult.ParseError> => {
  const definition = byTypeAndVersion.get(`${envelope.type}@${envelope.version}`)
  if (definition === undefined) return Effect.fail(new UnknownEventType({ type: envelope.type, version: envelope.version }))
  return Schema.decodeUnknown(DomainEvent)({ type: envelope.type, version: envelope.version, payload: envelope.payload })
}

/** Encodes a domain event's payload for the wire (branded ids and the like become plain JSON). */
export const encodeDomainEvent = (event: DomainEvent) => Schema.encode(DomainEvent)(event)
