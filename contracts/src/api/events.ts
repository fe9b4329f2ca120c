import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Schema } from "effect"
import { Forbidden, ValidationFailed, ServiceUnavailable } from "../errors.ts"
import { Timestamp } from "../ids.ts"
import { Authentication } from "../security.ts"
import { Page } from "./responses.ts"

export const auditPaging = { defaultLimit: 50, maxLimit: 500 } as const

export const ndjsonContentType = "application/x-ndjson"

const Position = Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0)))

/** One event as the audit feed serves it: the envelope, its place in the log and its place in the feed. */
export const AuditEvent = Schema.Struct({
  position: Position.annotate({
    description: "The event's feed position: grows with every event the feed takes in (the order of this list)"
  }),
  event_id: Schema.String,
  type: Schema.String,
  version: Schema.Int,
  aggregate_id: Schema.String,
  actor: Schema.String.annotate({ description: "user:<uuid>, service:<name> or anonymous" }),
  occurred_at: Timestamp,
  correlation_id: Schema.String,
  causation_id: Schema.NullOr(Schema.String),
  payload: Schema.Unknown.annotate({
    description: "The event's payload as the log holds it, credentials (password hashes) replaced by \"[redacted]\""
  }),
  integrity: Schema.NullOr(Schema.Unknown).annotate({
    description: "The envelope's integrity seal as it came, null for an event without one"
  }),
  topic: Schema.String,
  partition: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0))),
  offset: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
}).annotate({ identifier: "AuditEvent" })
export type AuditEvent = typeof AuditEvent.Type

const IsoTime = Schema.String.check(
  Schema.makeFilter(
    (value) =>
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !Number.isNaN(Date.parse(value)),
    { message: "must be an ISO 8601 time such as 2026-01-31T12:00:00Z (or a date, 2026-01-31)" }
  )
)

const PositionParam = Schema.NumberFromString.pipe(
  Schema.check(Schema.isInt({ message: "must be a whole number" })),
  Schema.check(Schema.isGreaterThan(0, { message: "must be a feed position: 1 or more" }))
)

// Optional keys are absent, never undefined: a bad value is then reported once, not also as "expected undefined".
export const AuditEventsParams = Schema.Struct({
  aggregate_id: Schema.optionalKey(Schema.String),
  type: Schema.optionalKey(Schema.Union([Schema.String, Schema.Array(Schema.String)])),
  actor: Schema.optionalKey(Schema.String),
  since: Schema.optionalKey(IsoTime),
  until: Schema.optionalKey(IsoTime),
  from_position: Schema.optionalKey(PositionParam),
  to_position: Schema.optionalKey(PositionParam),
  limit: Schema.optionalKey(
    Schema.NumberFromString.pipe(
      Schema.check(Schema.isInt({ message: "must be a whole number" })),
      Schema.check(Schema.isBetween({ minimum: 1, maximum: auditPaging.maxLimit }, { message: `must be between 1 and ${auditPaging.maxLimit}` }))
    )
  ),
  cursor: Schema.optionalKey(Schema.String),
  format: Schema.optionalKey(Schema.Literals(["json", "ndjson"]))
})

const listDescription = `Every event of the log, for auditors only (users whose email is in the server's AUDITOR_EMAILS):
401 without a valid token, 403 forbidden for everyone else.

Order: oldest first, by feed position (\`position\`), so a client can follow the feed; this departs from the
newest-first lists elsewhere on purpose (see docs/audit-api.md).

Filters, all combined with AND: \`aggregate_id\`, \`type\` (repeat it or give a comma-separated list; any of them),
\`actor\` (\`user:<uuid>\`, \`service:<name>\` or \`anonymous\`), \`since\` (inclusive) and \`until\` (exclusive), ISO 8601
times compared with \`occurred_at\`, and \`from_position\` / \`to_position\` (inclusive feed positions).

Paging: \`?limit=\` (default ${auditPaging.defaultLimit}, at most ${auditPaging.maxLimit}); when more events match, an RFC 8288
\`Link: <...>; rel="next"\` header names the next page (its \`cursor\` is opaque, the filters are kept). No Link header:
the last page. To follow the feed, ask again with \`from_position\` one past the last event's \`position\`.

Export: with \`Accept: ${ndjsonContentType}\` or \`?format=ndjson\` the answer is every matching event (not paged:
\`limit\` and \`cursor\` still narrow it when given), one JSON object a line, streamed as it is read.`

export class EventsGroup extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("list", "/events", {
      query: AuditEventsParams,
      success: [Page(AuditEvent), HttpApiSchema.StreamNdjson({ schema: AuditEvent, contentType: ndjsonContentType })],
      error: [Forbidden, ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "The audit feed: every event, filtered, paged or exported as NDJSON (auditors)")
      .annotate(OpenApi.Description, listDescription)
  )
  .middleware(Authentication) {}
