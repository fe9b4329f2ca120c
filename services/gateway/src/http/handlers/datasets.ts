import { HttpApiBuilder } from "effect/http-api"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { CurrentUser, type PiiScanKind, SynthApi } from "@synth/contracts"
import { Effect } from "effect"
import { DatasetService } from "../../datasets/DatasetService.ts"
import { PiiScanService } from "../../datasets/PiiScanService.ts"
import { ProfileService } from "../../datasets/ProfileService.ts"
import { locatedAt, pendingAt } from "../pending.ts"
import { newestFirstPage } from "../paging.ts"

export const DatasetsLive = HttpApiBuilder.group(SynthApi, "datasets", (handlers) =>
  Effect.gen(function* () {
    const datasets = yield* DatasetService
    const profiles = yield* ProfileService
    const piiScans = yield* PiiScanService
    const scan = (datasetId: string, kind: PiiScanKind) =>
      Effect.flatMap(CurrentUser, (user) => piiScans.request(datasetId, user.id, kind)).pipe(
        Effect.map(pendingAt((pending) => `/datasets/${pending.dataset_id}/pii-flags`))
      )
    return handlers
      .handle("upload", ({ payload, request }) =>
        Effect.flatMap(CurrentUser, (user) => {
          const incoming = NodeHttpServerRequest.toIncomingMessage(request)
          return datasets.upload({ owner: user.id, parts: payload, headers: request.headers, isBodyReceived: () => incoming.complete })
        }).pipe(
          Effect.map(locatedAt((dataset) => `/datasets/${dataset.id}`))
        )
      )
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentUser, (user) => newestFirstPage("/datasets/", query, (page) => datasets.list(user.id, page)))
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
      .handle("profile", ({ params }) =>
        Effect.flatMap(CurrentUser, (user) => profiles.request(params.dataset_id, user.id)).pipe(
          Effect.map(pendingAt((pending) => `/datasets/${pending.dataset_id}/profile`))
        )
      )
      .handle("getProfile", ({ params }) => Effect.flatMap(CurrentUser, (user) => profiles.get(params.dataset_id, user.id)))
      .handle("piiDetection", ({ params }) => scan(params.dataset_id, "basic"))
      .handle("piiDetectionEnhanced", ({ params }) => scan(params.dataset_id, "enhanced"))
      .handle("piiFlags", ({ params }) => Effect.flatMap(CurrentUser, (user) => piiScans.flags(params.dataset_id, user.id)))
  })
)
