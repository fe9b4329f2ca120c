import { PasswordHasher, TokensLive } from "@synth/auth"
import { layerFromConfig as BlobStoreLive } from "@synth/blobstore"
import { EvaluationLive } from "@synth/evaluation-service"
import { Ids, layerEmbeddedConfig as EventLogLive } from "@synth/eventlog"
import { GenerationLive } from "@synth/generation"
import { DrainOnShutdown, GatewayHttpLive, gatewayMigrations, gatewayProjections, HttpServerLive, UserKeys } from "@synth/gateway"
import { IngestLive } from "@synth/ingest"
import { PrivacyLive } from "@synth/privacy"
import { ProfilingLive } from "@synth/profiling"
import { layerFromConfig as ReadModelsLive, layerMigrations, ProjectorRuntime } from "@synth/sql"
import { Layer } from "effect"

/** Every read model of every service in this runtime, and the migrations of their tables. */
export const projections = [...gatewayProjections]
export const migrations = [gatewayMigrations]

/**
 * The projector over this runtime's projections, after the read-model tables are migrated; needs the blob store,
 * which holds the user keys the users projection opens sealed emails with.
 */
export const ProjectorLive = ProjectorRuntime.layer(projections).pipe(
  Layer.provide(layerMigrations(migrations)),
  Layer.provide(UserKeys.layer)
)

/**
 * The embedded default: one process with the gateway and every service, the durable embedded event log, the
 * embedded read-model database and the blob store (DATA_DIR/blobs, or S3 when S3_ENDPOINT is set). The event log
 * opens first and holds DATA_DIR against other processes.
 */
export const StandaloneLive = Layer.mergeAll(
  GatewayHttpLive,
  IngestLive,
  ProfilingLive,
  PrivacyLive,
  GenerationLive,
  EvaluationLive
).pipe(
  Layer.provideMerge(HttpServerLive),
  Layer.provide(ProjectorRuntime.layerRunning),
  Layer.provide(Layer.mergeAll(TokensLive, PasswordHasher.layer, Ids.layer)),
  Layer.provideMerge(ProjectorLive),
  Layer.provideMerge(ReadModelsLive),
  Layer.provideMerge(BlobStoreLive),
  Layer.provideMerge(EventLogLive)
)

/**
 * The embedded default as a process runs it: at SIGTERM the HTTP side drains first (no new requests, those in
 * flight finish within SHUTDOWN_GRACE), then the services stop (running generation jobs are handed back), then
 * the stores close.
 */
export const StandaloneProcessLive = DrainOnShutdown.pipe(Layer.provide(StandaloneLive))
