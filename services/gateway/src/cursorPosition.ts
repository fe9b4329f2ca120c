import { ValidationFailed } from "@synth/contracts"
import { Effect, Option } from "effect"

// The services that page (datasets, generators, the audit feed) and the HTTP layer's paging helpers share this
// rule, so it lives beside neither.

/** Where the page starts, from `?cursor=`: none on the first page; a cursor this server did not issue is a 422. */
export const cursorPosition = <A>(
  cursor: string | undefined,
  decode: (cursor: string) => Option.Option<A>
): Effect.Effect<Option.Option<A>, ValidationFailed> => {
  if (cursor === undefined) return Effect.succeedNone
  return Option.match(decode(cursor), {
    onNone: () =>
      Effect.fail(
        new ValidationFailed({
          detail: "The cursor is not one this server issued. Follow the Link header of the previous page.",
          errors: [{ field: "cursor", message: "is not a cursor from a Link header" }]
        })
      ),
    onSome: Effect.succeedSome
  })
}
