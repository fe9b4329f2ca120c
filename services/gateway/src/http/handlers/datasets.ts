import { HttpApiBuilder } from "effect/http-api"
import { HttpServerResponse } from "effect/http"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { CurrentUser, datasetPaging, SynthApi, ValidationFailed } from "@synth/contracts"
import { Effect, Option } from "effect"
import { decodeCursor, encodeCursor } from "../../datasets/cursor.ts"
import { DatasetService } from "../../datasets/DatasetService.ts"
import { PiiScanService } from "../../datasets/PiiScanService.ts"
import { ProfileService } from "../../datasets/ProfileService.ts"

/** The link to the next page keeps the caller's limit; the cursor is opaque. */
const nextLink = (limit: number, lastId: string) =>
  `</datasets/?limit=${limit}&cursor=${encodeURIComponent(encodeCursor(lastId))}>; rel="next"`

export const DatasetsLive = HttpApiBuilder.group(SynthApi, "datasets", (handlers) =>
  Effect.gen(function* () {
    const datasets = yield* DatasetService
    const profiles = yield* ProfileService
    const piiScans = yield* PiiScanService
    return handlers
      .handle("upload", ({ payload, request }) =>
        Effect.flatMap(CurrentUser, (user) => {
          const incoming = NodeHttpServerRequest.toIncomingMessage(request)
          return datasets.upload({ owner: user.id, parts: payload, headers: request.headers, isBodyReceived: () => incoming.complete })
        })
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
          const page = yield* datasets.list(user.id, { limit, before })
          const headers = Option.match(page.next, { onNone: () => ({}), onSome: (id) => ({ link: nextLink(limit, id) }) })
          return HttpServerResponse.jsonUnsafe(page.items, { headers })
        })
      )
      .handle("get", ({ params }) => Effect.flatMap(CurrentUser, (user) => datasets.get(params.dataset_id, user.id)))
      .handle("download", ({ params, query }) =>
        Effect.flatMap(CurrentUser, (user) =>
          datasets.download(params.dataset_id, user.id, {
            format: query.format ?? "csv",
            values: query.values ?? "source"
          }))
      )
      .handle("delete", ({ params }) => Effect.flatMap(CurrentUser, (user) => datasets.remove(params.dataset_id, user.id)))
      .handle("profile", ({ params }) => Effect.flatMap(CurrentUser, (user) => profiles.request(params.dataset_id, user.id)))
      .handle("getProfile", ({ params }) => Effect.flatMap(CurrentUser, (user) => profiles.get(params.dataset_id, user.id)))
      .handle("piiDetection", ({ params }) =>
        Effect.flatMap(CurrentUser, (user) => piiScans.request(params.dataset_id, user.id, "basic"))
      )
      .handle("piiDetectionEnhanced", ({ params }) =>
        Effect.flatMap(CurrentUser, (user) => piiScans.request(params.dataset_id, user.id, "enhanced"))
      )
      .handle("piiFlags", ({ params }) => Effect.flatMap(CurrentUser, (user) => piiScans.flags(params.dataset_id, user.id)))
  })
)
