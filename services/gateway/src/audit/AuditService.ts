import {
  type AuditEvent,
  auditPaging,
  type AuditEventsParams,
  type CurrentUser,
  Forbidden,
  ndjsonContentType,
  ValidationFailed
} from "@synth/contracts"
import { Context, Effect, Layer, Option, type Stream } from "effect"
import { ProjectorRuntime } from "@synth/sql"
import { GatewayConfig } from "../config.ts"
import { cursorPosition } from "../cursorPosition.ts"
import { AuditRepository, type AuditFilter } from "./AuditRepository.ts"
import { decodeAuditCursor, encodeAuditCursor } from "./cursor.ts"
import { auditProjectionName } from "./projection.ts"

type Params = typeof AuditEventsParams.Type

/** `type=a&type=b`, `type=a,b` or both: the event types asked for, each once. */
const typesOf = (type: Params["type"]): ReadonlyArray<string> | undefined => {
  if (type === undefined) return undefined
  const listed = (typeof type === "string" ? [type] : type).flatMap((entry) => entry.split(","))
  return [...new Set(listed.map((entry) => entry.trim()).filter((entry) => entry !== ""))]
}

/** As UTC: a date alone is midnight UTC (as in JavaScript), never the database session's time zone. */
const utc = (time: string | undefined) => (time === undefined ? undefined : new Date(time).toISOString())

const filterOf = (params: Params): AuditFilter => ({
  aggregateId: params.aggregate_id,
  types: typesOf(params.type),
  actor: params.actor,
  since: utc(params.since),
  until: utc(params.until),
  fromPosition: params.from_position,
  toPosition: params.to_position
})

/** The query of the next page keeps the caller's filters and limit; only the cursor changes. */
const nextQuery = (params: Params, limit: number, lastPosition: number) => {
  const query = new URLSearchParams()
  if (params.aggregate_id !== undefined) query.set("aggregate_id", params.aggregate_id)
  for (const type of typesOf(params.type) ?? []) query.append("type", type)
  if (params.actor !== undefined) query.set("actor", params.actor)
  if (params.since !== undefined) query.set("since", params.since)
  if (params.until !== undefined) query.set("until", params.until)
  if (params.from_position !== undefined) query.set("from_position", String(params.from_position))
  if (params.to_position !== undefined) query.set("to_position", String(params.to_position))
  query.set("limit", String(limit))
  query.set("cursor", encodeAuditCursor(lastPosition))
  return query
}

/** What GET /events answers: a page, with the query of the next one while more match, or every match (the export). */
export type AuditAnswer =
  | { readonly _tag: "Page"; readonly items: ReadonlyArray<AuditEvent>; readonly next: Option.Option<URLSearchParams> }
  | { readonly _tag: "Export"; readonly events: Stream.Stream<AuditEvent> }

const wantsNdjson = (params: Params, accept: string | undefined) =>
  params.format === "ndjson" || (params.format === undefined && (accept ?? "").toLowerCase().includes(ndjsonContentType))

/**
 * The audit feed for auditors: pages of events, or every matching event as NDJSON, streamed. Requests do not wait
 * for the feed when they append (it follows every topic, and a slow feed must not hold up every user's write):
 * a read here waits instead, up to READ_YOUR_WRITES_TIMEOUT, until the feed has caught up with the log as it stood
 * when the read came, so it shows every event appended before it. If the feed is later than that, the read answers
 * with what the feed holds; the positions it pages by let the next read pick up the rest.
 */
export class AuditService extends Context.Service<AuditService>()("@synth/gateway/AuditService", {
  make: Effect.gen(function* () {
    const events = yield* AuditRepository
    const projector = yield* ProjectorRuntime
    const config = yield* GatewayConfig

    const caughtUp = projector.awaitCaughtUp([auditProjectionName], config.readYourWritesTimeout).pipe(
      Effect.catch((late) => Effect.logWarning(`Audit feed read before it caught up with the log: ${late.message}`))
    )

    const list = Effect.fn("AuditService.list")(function* (
      user: CurrentUser["Service"],
      params: Params,
      accept: string | undefined
    ): Effect.fn.Return<AuditAnswer, Forbidden | ValidationFailed> {
      if (!user.roles.includes("auditor")) {
        return yield* new Forbidden({
          detail: "GET /events is for auditors only. Ask the operators to add your email to AUDITOR_EMAILS."
        })
      }
      const after = yield* cursorPosition(params.cursor, decodeAuditCursor)
      const filter = filterOf(params)
      const reversed = [
        ...(filter.since !== undefined && filter.until !== undefined && filter.since > filter.until
          ? [{ field: "until", message: "must not be before since" }]
          : []),
        ...(filter.fromPosition !== undefined && filter.toPosition !== undefined && filter.fromPosition > filter.toPosition
          ? [{ field: "to_position", message: "must not be below from_position" }]
          : [])
      ]
      if (reversed.length > 0) {
        return yield* new ValidationFailed({
          detail: `The range is reversed: ${reversed.map((error) => `${error.field} ${error.message}`).join("; ")}.`,
          errors: reversed
        })
      }
      yield* caughtUp
      const start = Option.getOrElse(after, () => 0)
      if (wantsNdjson(params, accept)) return { _tag: "Export", events: events.stream(filter, start, params.limit) }
      const limit = params.limit ?? auditPaging.defaultLimit
      const page = yield* events.page(filter, start, limit)
      return { _tag: "Page", items: page.items, next: Option.map(page.next, (last) => nextQuery(params, limit, last)) }
    })

    return { list } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([AuditRepository.layer]))
}
