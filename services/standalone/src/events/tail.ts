import { Command, Flag } from "effect/cli"
import { FetchHttpClient } from "effect/http"
import { AuditEvent, auditPaging } from "@synth/contracts"
import { Console, Duration, Effect, Option, Schema } from "effect"
import { baseUrlOf, connectionOptions } from "../client/options.ts"
import { GenerationFailed } from "../generate/errors.ts"
import { accessToken, type CredentialOptions } from "../upload/credentials.ts"
import { type FilterInput, filterOptions, getEvents, queryOf } from "./feed.ts"

const options = {
  ...filterOptions,
  fromPosition: Flag.Int("from-position").pipe(
    Flag.optional,
    Flag.withDescription("Start at this feed position (each event's `position`) instead of at the present")
  ),
  interval: Flag.Finite("interval").pipe(
    Flag.withDefault(2),
    Flag.withDescription("Seconds between polls once the feed is read to its end (default 2)")
  ),
  json: Flag.Boolean("json").pipe(Flag.withDefault(false), Flag.withDescription("One JSON object a line (NDJSON) instead of one readable line")),
  ...connectionOptions
}

interface TailInput extends CredentialOptions, FilterInput {
  readonly fromPosition: Option.Option<number>
  readonly interval: number
  readonly json: boolean
  readonly url: string
}

const decodePage = Schema.decodeUnknownEffect(Schema.Array(AuditEvent))

/** `2026-01-31T12:00:00.000Z  #42  dataset.uploaded  <aggregate id>  user:<uuid>` */
export const eventLine = (event: AuditEvent) =>
  `${event.occurred_at}  #${event.position}  ${event.type}  ${event.aggregate_id}  ${event.actor}`

/**
 * Polls GET /events from where it starts (`--from-position`, `--since`, or else the moment it starts) and prints each
 * matching event once, in feed order: after a page it continues one past the last position it printed, and waits
 * `--interval` only when a page was not full. Interrupted (Ctrl-C, SIGTERM) between or during polls, it ends with 0.
 */
const tail = (input: TailInput) =>
  Effect.gen(function*() {
    if (!(input.interval > 0)) return yield* new GenerationFailed({ message: "--interval must be a positive number of seconds" })
    // "The present" is when the command started, before it logged in: its own login is the first event it can show.
    let start: Record<string, string> = Option.match(input.fromPosition, {
      onSome: (position) => ({ from_position: String(position) }),
      onNone: () => (Option.isSome(input.since) ? {} : { since: new Date().toISOString() })
    })
    const baseUrl = yield* baseUrlOf(input.url)
    const token = yield* accessToken(baseUrl, input)
    const filters = queryOf(input)
    while (true) {
      const response = yield* getEvents(baseUrl, token, { ...filters, ...start, limit: String(auditPaging.maxLimit) }, "application/json")
      const events = yield* response.json.pipe(
        Effect.flatMap(decodePage),
        Effect.mapError(() => new GenerationFailed({ message: `the answer of ${baseUrl}/events was not what this synth expects` }))
      )
      for (const event of events) yield* Console.log(input.json ? JSON.stringify(event) : eventLine(event))
      const last = events.at(-1)
      if (last !== undefined) start = { from_position: String(last.position + 1) }
      if (events.length < auditPaging.maxLimit) yield* Effect.sleep(Duration.seconds(input.interval))
    }
  }).pipe(Effect.provide(FetchHttpClient.layer))

export const tailCommand = Command.make("tail", options, tail).pipe(
  Command.withDescription(
    "Follow the event log through GET /events (auditors only): each new matching event on one line, or as NDJSON " +
      "with --json. Starts at the present unless --since or --from-position says otherwise; Ctrl-C ends it (exit 0)."
  )
)
