import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
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
          const page = yield* datasets.list(user.id, { limit, before })
          const headers = Option.match(page.next, { onNone: () => ({}), onSome: (id) => ({ link: nextLink(limit, id) }) })
          return HttpServerResponse.unsafeJson(page.items, { headers })
        })
      )
      .handle("get", ({ path }) => Effect.flatMap(CurrentUser, (user) => datasets.get(path.dataset_id, user.id)))
      .handle("download", ({ path, urlParams }) =>
        Effect.flatMap(CurrentUser, (user) =>
          datasets.download(path.dataset_id, user.id, {
            format: urlParams.format ?? "csv",
            values: urlParams.values ?? "source"
          }))
      )
      .handle("delete", ({ path }) => Effect.flatMap(CurrentUser, (user) => datasets.remove(path.dataset_id, user.id)))
      .handle("profile", ({ path }) => Effect.flatMap(CurrentUser, (user) => profiles.request(path.dataset_id, user.id)))
      .handle("getProfile", ({ path }) => Effect.flatMap(CurrentUser, (user) => profiles.get(path.dataset_id, user.id)))
      .handle("piiDetection", ({ path }) =>
        Effect.flatMap(CurrentUser, (user) => piiScans.request(path.dataset_id, user.id, "basic"))
      )
      .handle("piiDetectionEnhanced", ({ path }) =>
        Effect.flatMap(CurrentUser, (user) => piiScans.request(path.dataset_id, user.id, "enhanced"))
      )
      .handle("piiFlags", ({ path }) => Effect.flatMap(CurrentUser, (user) => piiScans.flags(path.dataset_id, user.id)))
  })
)
