import { Schema } from "effect"

/** Identifiers are UUID strings (version 7 where we mint them: time-ordered, friendly to an append-only log). */
const Uuid = Schema.String.check(Schema.isUUID())

export const UserId = Uuid.pipe(Schema.brand("UserId")).annotate({ identifier: "UserId" })
export type UserId = typeof UserId.Type

export const DatasetId = Uuid.pipe(Schema.brand("DatasetId")).annotate({ identifier: "DatasetId" })
export type DatasetId = typeof DatasetId.Type

export const GeneratorId = Uuid.pipe(Schema.brand("GeneratorId")).annotate({ identifier: "GeneratorId" })
export type GeneratorId = typeof GeneratorId.Type

export const EvaluationId = Uuid.pipe(Schema.brand("EvaluationId")).annotate({ identifier: "EvaluationId" })
export type EvaluationId = typeof EvaluationId.Type

export const EventId = Uuid.pipe(Schema.brand("EventId")).annotate({ identifier: "EventId" })
export type EventId = typeof EventId.Type

/** ISO 8601 UTC with `Z`, as the conventions require on the wire. */
export const Timestamp = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)).annotate({
  identifier: "Timestamp",
  description: "ISO 8601 UTC timestamp"
})
