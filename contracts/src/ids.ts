import { Schema } from "effect"

/** Identifiers are UUID strings (version 7 where we mint them: time-ordered, friendly to an append-only log). */
const uuid = <const Brand extends string>(brand: Brand) =>
  Schema.UUID.pipe(Schema.brand(brand), Schema.annotations({ identifier: brand }))

export const UserId = uuid("UserId")
export type UserId = typeof UserId.Type

export const DatasetId = uuid("DatasetId")
export type DatasetId = typeof DatasetId.Type

export const GeneratorId = uuid("GeneratorId")
export type GeneratorId = typeof GeneratorId.Type

export const EvaluationId = uuid("EvaluationId")
export type EvaluationId = typeof EvaluationId.Type

export const EventId = uuid("EventId")
export type EventId = typeof EventId.Type

/** ISO 8601 UTC with `Z`, as the conventions require on the wire. */
export const Timestamp = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
  Schema.annotations({ identifier: "Timestamp", description: "ISO 8601 UTC timestamp" })
)
