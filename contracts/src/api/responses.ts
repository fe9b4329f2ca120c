import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/**
 * Success responses whose headers are part of the contract: the server encodes the body with its schema and the
 * headers with theirs, and the OpenAPI document lists both. A handler answers one with
 * `HttpApiSchema.withHeaders({ body, headers })`.
 */

/** A success that names its resource in `Location`: where to read it, or to poll it while it is being made. */
export const Located = <S extends Schema.Top>(schema: S) =>
  HttpApiSchema.WithHeaders(schema, {
    location: Schema.String.annotate({ description: "the path of the resource to read or poll" })
  })

/** One page of a list: the items, and an RFC 8288 `Link: <...>; rel="next"` while more follow (none on the last page). */
export const Page = <S extends Schema.Top>(item: S) =>
  HttpApiSchema.WithHeaders(Schema.Array(item), {
    link: Schema.optionalKey(Schema.String.annotate({ description: "`<next page>; rel=\"next\"`, absent on the last page" }))
  })
