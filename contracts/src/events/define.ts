import { Schema } from "effect"
import type { TopicName } from "../topics.ts"

/** One published event schema: a (type, version) pair, the topic it lives on and its payload schema. */
export interface EventDefinition<Type extends string, Version extends number, Payload extends Schema.Top> {
  readonly type: Type
  readonly version: Version
  readonly topic: TopicName
  readonly description: string
  readonly payload: Payload
  /** The decoded form: `{ type, version, payload }`, discriminated by `type`. */
  readonly schema: Schema.Struct<{
    type: Schema.Literal<Type>
    version: Schema.Literal<Version>
    payload: Payload
  }>
}

export const defineEvent = <const Type extends string, const Version extends number, Payload extends Schema.Top>(
  definition: Omit<EventDefinition<Type, Version, Payload>, "schema">
): EventDefinition<Type, Version, Payload> => ({
  ...definition,
  schema: Schema.Struct({
    type: Schema.Literal(definition.type),
    version: Schema.Literal(definition.version),
    payload: definition.payload
  })
})

/** Any definition, by the fields an upcaster needs (the `schema` field is invariant in its literals). */
type AnyEventDefinition = Omit<EventDefinition<string, number, Schema.Top>, "schema">

/**
 * Reads an older version of an event as the next one. The older definition stays published (logs written before
 * the new version still hold it); consumers only ever see the newest shape, because the catalog decodes the old
 * payload against its own schema and then upcasts it.
 */
export interface EventUpcaster<From extends AnyEventDefinition, To extends AnyEventDefinition> {
  readonly from: From
  readonly to: To
  /** What changed and how the old fields map onto the new ones (rendered into docs/events.md). */
  readonly description: string
  readonly upcast: (payload: From["payload"]["Type"]) => To["payload"]["Type"]
}

export const defineUpcaster = <From extends AnyEventDefinition, To extends AnyEventDefinition>(
  upcaster: EventUpcaster<From, To>
): EventUpcaster<From, To> => {
  if (upcaster.from.type !== upcaster.to.type || upcaster.to.version !== upcaster.from.version + 1) {
    throw new Error(`an upcaster goes from one version of a type to the next, not ${upcaster.from.type}@${upcaster.from.version} to ${upcaster.to.type}@${upcaster.to.version}`)
  }
  return upcaster
}
