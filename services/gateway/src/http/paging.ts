import { HttpApiSchema } from "effect/http-api"
import { datasetPaging } from "@synth/contracts"
import { Effect, Option } from "effect"
import { cursorPosition } from "../cursorPosition.ts"
import { decodeCursor, encodeCursor } from "../datasets/cursor.ts"

/**
 * The paged lists (GET /datasets/, /generators/, /events) page alike: `?limit=`, an opaque `?cursor=` taken from the
 * previous page's `Link: <...>; rel="next"`, and no Link on the last page (the contracts' `Page`).
 */

/** A page as the contract's `Page` sends it: the items, and the link to the next page when there is one. */
export const linkedPage = <A>(items: ReadonlyArray<A>, next: Option.Option<{ readonly path: string; readonly query: URLSearchParams }>) =>
  HttpApiSchema.withHeaders({
    body: items,
    headers: Option.match(next, {
      onNone: () => ({}),
      onSome: ({ path, query }) => ({ link: `<${path}?${query.toString()}>; rel="next"` })
    })
  })

/** A page of one of the caller's lists, newest first: the items and the id of the last when more follow. */
export interface NewestFirstPage<A> {
  readonly items: ReadonlyArray<A>
  readonly next: Option.Option<string>
}

/**
 * GET /datasets/ and GET /generators/: `list` reads the page of `limit` items before the cursor's id; the link to the
 * next page keeps the caller's limit.
 */
export const newestFirstPage = <A, E, R>(
  path: string,
  query: { readonly limit?: number | undefined; readonly cursor?: string | undefined },
  list: (page: { readonly limit: number; readonly before: Option.Option<string> }) => Effect.Effect<NewestFirstPage<A>, E, R>
) =>
  Effect.gen(function* () {
    const limit = query.limit ?? datasetPaging.defaultLimit
    const before = yield* cursorPosition(query.cursor, decodeCursor)
    const page = yield* list({ limit, before })
    return linkedPage(
      page.items,
      Option.map(page.next, (lastId) => ({ path, query: new URLSearchParams({ limit: String(limit), cursor: encodeCursor(lastId) }) }))
    )
  })
