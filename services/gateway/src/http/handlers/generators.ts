import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { CurrentUser, datasetPaging, SynthApi, ValidationFailed } from "@synth/contracts"
import { Effect, Option } from "effect"
import { decodeCursor, encodeCursor } from "../../datasets/cursor.ts"
import { GeneratorService } from "../../generators/GeneratorService.ts"

/** The link to the next page keeps the caller's limit; the cursor is opaque. */
const nextLink = (limit: number, lastId: string) =>
  `</generators/?limit=${limit}&cursor=${encodeURIComponent(encodeCursor(lastId))}>; rel="next"`

export const GeneratorsLive = HttpApiBuilder.group(SynthApi, "generators", (handlers) =>
  Effect.gen(function* () {
    const generators = yield* GeneratorService
    return handlers
      .handle("generate", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.generate(path.dataset_id, user.id, payload))
      )
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const limit = urlParams.limit ?? datasetPaging.defaultLimit
          const before = urlParams.cursor === undefined ? Option.none<string>() : decodeCursor(urlParams.cursor)
          if (urlParams.cursor !== undefined && Option.isNone(before)) {
            return yield* new ValidationFailed({
              detail: "The cursor is not one this server issued. Follow the Link header of the previous page.",
              errors: [{ field: "cursor", message: "is not a cursor from a Link header" }]
            })
          }
          const page = yield* generators.list(user.id, { limit, before })
          const headers = Option.match(page.next, { onNone: () => ({}), onSome: (id) => ({ link: nextLink(limit, id) }) })
          return HttpServerResponse.unsafeJson(page.items, { headers })
        })
      )
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (user) => generators.get(path.generator_id, user.id)))
      .handle("cancel", ({ path }) => Effect.flatMap(CurrentUser, (user) => generators.cancel(path.generator_id, user.id)))
      .handle("sample", ({ path, payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.sample(path.generator_id, user.id, payload))
      )
      .handle("validateDpConfig", ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.validateDpConfig(user.id, payload))
      )
  })
)
