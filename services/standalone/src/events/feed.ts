import { Flag } from "effect/cli"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import type { AuditEventsParams } from "@synth/contracts"
import { Effect, Option } from "effect"
import { refusalLine } from "../client/refusalLine.ts"
import { GenerationFailed } from "../generate/errors.ts"

/** The filters `synth events tail` and `export` share; each becomes the GET /events query parameter of its name. */
export const filterOptions = {
  type: Flag.String("type").pipe(
    Flag.atLeast(0),
    Flag.withDescription("Only events of this type, e.g. dataset.uploaded (repeatable, or a comma-separated list)")
  ),
  aggregate: Flag.String("aggregate").pipe(Flag.optional, Flag.withDescription("Only the events of this aggregate id")),
  actor: Flag.String("actor").pipe(
    Flag.optional,
    Flag.withDescription("Only events caused by this actor: user:<uuid>, service:<name> or anonymous")
  ),
  since: Flag.String("since").pipe(
    Flag.optional,
    Flag.withDescription("Only events that occurred at or after this ISO 8601 time, e.g. 2026-01-31T12:00:00Z")
  )
}

export interface FilterInput {
  readonly type: ReadonlyArray<string>
  readonly aggregate: Option.Option<string>
  readonly actor: Option.Option<string>
  readonly since: Option.Option<string>
}

type Query = Partial<Record<keyof typeof AuditEventsParams.Type, string | ReadonlyArray<string>>>

export const queryOf = (input: FilterInput): Query => ({
  ...(input.type.length > 0 ? { type: input.type } : {}),
  ...Option.match(input.aggregate, { onNone: () => ({}), onSome: (aggregate_id) => ({ aggregate_id }) }),
  ...Option.match(input.actor, { onNone: () => ({}), onSome: (actor) => ({ actor }) }),
  ...Option.match(input.since, { onNone: () => ({}), onSome: (since) => ({ since }) })
})

const urlOf = (baseUrl: string, query: Query) => {
  const url = new URL(`${baseUrl}/events`)
  for (const [name, value] of Object.entries(query)) {
    for (const entry of typeof value === "string" ? [value] : value ?? []) url.searchParams.append(name, entry)
  }
  return url.href
}

const innermostMessage = (error: unknown): string =>
  error instanceof Error && error.cause instanceof Error ? innermostMessage(error.cause) : String(error instanceof Error ? error.message : error)

const refused = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.flatMap(refusalLine(response, "GET /events"), (message) => Effect.fail(new GenerationFailed({ message })))

/**
 * GET /events with the query and `accept`, answered 200; anything else fails with the one line `synth` prints
 * (the problem's detail, or why the server could not be reached).
 */
export const getEvents = (baseUrl: string, token: string, query: Query, accept: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request = HttpClientRequest.get(urlOf(baseUrl, query)).pipe(
      HttpClientRequest.bearerToken(token),
      HttpClientRequest.accept(accept)
    )
    const response = yield* client.execute(request).pipe(
      Effect.mapError((error) => new GenerationFailed({ message: `could not reach ${baseUrl}: ${innermostMessage(error)}` }))
    )
    if (response.status !== 200) return yield* refused(response)
    return response
  })
