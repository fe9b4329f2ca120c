import { HttpApiBuilder } from "effect/http-api"
import { HttpServerResponse } from "effect/http"
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
      .handle("generate", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.generate(params.dataset_id, user.id, payload))
      )
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const limit = query.limit ?? datasetPaging.defaultLimit
          const before = query.cursor === undefined ? Option.none<string>() : decodeCursor(query.cursor)
          if (query.cursor !== undefined && Option.isNone(before)) {
            return yield* new ValidationFailed({
              detail: "The cursor is not one this server issued. Follow the Link header of the previous page.",
              errors: [{ field: "cursor", message: "is not a cursor from a Link header" }]
            })
          }
          const page = yield* generators.list(user.id, { limit, before })
          const headers = Option.match(page.next, { onNone: () => ({}), onSome: (id) => ({ link: nextLink(limit, id) }) })
          return HttpServerResponse.jsonUnsafe(page.items, { headers })
        })
      )
      .handle("get", ({ params }) => Effect.flatMap(CurrentUser, (user) => generators.get(params.generator_id, user.id)))
      .handle("cancel", ({ params }) => Effect.flatMap(CurrentUser, (user) => generators.cancel(params.generator_id, user.id)))
      .handle("sample", ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.sample(params.generator_id, user.id, payload))
      )
      .handle("validateDpConfig", ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) => generators.validateDpConfig(user.id, payload))
      )
  })
)
