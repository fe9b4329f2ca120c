import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { PasswordHasher, TokensLive } from "@synth/auth"
import { layerFromConfig as BlobStoreLive } from "@synth/blobstore"
import { layerFromConfig as EventLogLive, Ids } from "@synth/eventlog"
import { layerFromConfig as ReadModelsLive, layerMigrations, ProjectorRuntime } from "@synth/sql"
import { layerLogging, teardown } from "@synth/observability"
import { Layer } from "effect"
import { RequireSharedJwtSecret } from "./distributed.ts"
import { GatewayHttpLive } from "./http/layer.ts"
import { gatewayMigrations, gatewayProjections } from "./readModels.ts"
import { DrainOnShutdown, HttpServerLive } from "./server.ts"
import { UserKeys } from "./users/UserKeys.ts"

// The gateway as its own process (the distributed runtime: one per replica). Infrastructure comes from the
// environment: Kafka when KAFKA_BROKERS is set, PostgreSQL when DATABASE_URL is set, S3 when S3_ENDPOINT is set,
// else the embedded adapters.
// Every replica serves HTTP and projects the log into the shared read models; the cursor rows, locked per
// partition, make the replicas take turns instead of applying an event twice.
// At SIGTERM the HTTP side drains first (DrainOnShutdown is built last, so it is released first).
const GatewayLive = Layer.mergeAll(GatewayHttpLive, ProjectorRuntime.layerRunning).pipe(
  Layer.provideMerge(HttpServerLive),
  Layer.provide(Layer.mergeAll(TokensLive, PasswordHasher.layer, Ids.layer)),
  Layer.provide(
    ProjectorRuntime.layer(gatewayProjections).pipe(
      Layer.provide(layerMigrations([gatewayMigrations])),
      Layer.provide(UserKeys.layer)
    )
  ),
  Layer.provide(Layer.mergeAll(EventLogLive, ReadModelsLive, BlobStoreLive))
)

DrainOnShutdown.pipe(
  Layer.provide(GatewayLive),
  Layer.provide(RequireSharedJwtSecret),
  Layer.provide(layerLogging("gateway")),
  Layer.launch,
  NodeRuntime.runMain({ teardown })
)
