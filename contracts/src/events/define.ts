import { Schema } from "effect"
import type { TopicName } from "../topics.ts"

/** One published event schema: a (type, version) pair, the topic it lives on and its payload schema. */
export interface EventDefinition<Type extends string, Version extends number, Payload extends Schema.Schema.Any> {
  readonly type: Type
  readonly version: Version
  readonly topic: TopicName
  readonly description: string
  readonly payload: Payload
  /** The decoded form: `{ type, version, payload }`, discriminated by `type`. */
  readonly schema: Schema.Struct<{
    type: Schema.Literal<[Type]>
    version: Schema.Literal<[Version]>
    payload: Payload
  }>
}

export const defineEvent = <const Type extends string, const Version extends number, Payload extends Schema.Schema.Any>(
  definition: Omit<EventDefinition<Type, Version, Payload>, "schema">
): EventDefinition<Type, Version, Payload> => ({
  ...definition,
  schema: Schema.Struct({
    type: Schema.Literal(definition.type),
    version: Schema.Literal(definition.version),
    payload: definition.payload
  })
})
