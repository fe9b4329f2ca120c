import { Effect, Schema } from "effect"
import type { EventEnvelope } from "../envelope.ts"
import { datasetEvents, datasetUpcasters } from "./dataset.ts"
import { evaluationEvents } from "./evaluation.ts"
import { generatorEvents } from "./generator.ts"
import { userEvents, userUpcasters } from "./user.ts"

/** The current version of every published event type. docs/events.md is generated from this list. */
export const eventCatalog = [...userEvents, ...datasetEvents, ...generatorEvents, ...evaluationEvents] as const

/**
 * Every superseded version with the upcaster that reads it as the next version. Writers emit only the current
 * versions; a log still holds the old ones, and decoding turns them into the current shape.
 */
export const eventUpcasters = [...userUpcasters, ...datasetUpcasters] as const

export const DomainEvent = Schema.Union(eventCatalog.map((definition) => definition.schema))
export type DomainEvent = typeof DomainEvent.Type
export type DomainEventType = DomainEvent["type"]
export type DomainEventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>

export class UnknownEventType extends Schema.TaggedError<UnknownEventType>()("UnknownEventType", {
  type: Schema.String,
  version: Schema.Number
}) {}

const keyOf = (type: string, version: number) => `${type}@${version}`

const byTypeAndVersion = new Map<string, (typeof eventCatalog)[number]>(
  eventCatalog.map((definition) => [keyOf(definition.type, definition.version), definition])
)

interface LooseUpcaster {
  readonly from: { readonly type: string; readonly version: number; readonly payload: Schema.Codec<unknown, unknown> }
  readonly to: { readonly version: number }
  readonly upcast: (payload: unknown) => unknown
}

const upcasterFrom = new Map<string, LooseUpcaster>(
  eventUpcasters.map((upcaster) => [keyOf(upcaster.from.type, upcaster.from.version), upcaster as unknown as LooseUpcaster])
)

/** Applies upcasters from `version` on until no upcaster starts there (the current version). */
const upcastToCurrent = (type: string, version: number, payload: unknown): { readonly version: number; readonly payload: unknown } => {
  const next = upcasterFrom.get(keyOf(type, version))
  return next === undefined ? { version, payload } : upcastToCurrent(type, next.to.version, next.upcast(payload))
}

/** Decodes a superseded version's payload against its own schema, then upcasts it to the current version. */
const decodeSuperseded = (
  upcaster: LooseUpcaster,
  envelope: EventEnvelope
): Effect.Effect<DomainEvent, UnknownEventType | Schema.SchemaError> =>
  Effect.flatMap(Schema.decodeUnknownEffect(upcaster.from.payload)(envelope.payload), (payload) => {
    const current = upcastToCurrent(envelope.type, upcaster.from.version, payload)
    return byTypeAndVersion.has(keyOf(envelope.type, current.version))
      ? Effect.succeed({ type: envelope.type, ...current } as DomainEvent)
      : Effect.fail(new UnknownEventType({ type: envelope.type, version: envelope.version }))
  })

export const topicOf = (type: DomainEventType) => {
  const definition = eventCatalog.find((candidate) => candidate.type === type)
  if (definition === undefined) throw new Error(`event type ${type} is not in the catalog`)
  return definition.topic
}

/**
 * Decodes the payload of a stored envelope against the schema registered for its type and version; a superseded
 * version comes out in the current version's shape (through its upcasters), so consumers only know current versions.
 */
export const decodeDomainEvent = (
  envelope: EventEnvelope
): Effect.Effect<DomainEvent, UnknownEventType | Schema.SchemaError> => {
  const upcaster = upcasterFrom.get(keyOf(envelope.type, envelope.version))
  if (upcaster !== undefined) return decodeSuperseded(upcaster, envelope)
  const definition = byTypeAndVersion.get(keyOf(envelope.type, envelope.version))
  if (definition === undefined) return Effect.fail(new UnknownEventType({ type: envelope.type, version: envelope.version }))
  return Schema.decodeUnknownEffect(DomainEvent)({ type: envelope.type, version: envelope.version, payload: envelope.payload })
}

/** Encodes a domain event's payload for the wire (branded ids and the like become plain JSON). */
export const encodeDomainEvent = (event: DomainEvent) => Schema.encodeEffect(DomainEvent)(event)
