import { PasswordHasher, TokensLive } from "@synth/auth"
import { layerEmbeddedConfig as EventLogLive } from "@synth/eventlog"
import { GatewayHttpLive, gatewayMigrations, gatewayProjections, HttpServerLive, Ids } from "@synth/gateway"
import { layerFromConfig as ReadModelsLive, layerMigrations, ProjectorRuntime } from "@synth/sql"
import { Layer } from "effect"

/** Every read model of every service in this runtime, and the migrations of their tables. */
export const projections = [...gatewayProjections]
export const migrations = [gatewayMigrations]

/** The projector over this runtime's projections, after the read-model tables are migrated. */
export const ProjectorLive = ProjectorRuntime.layer(projections).pipe(Layer.provide(layerMigrations(migrations)))

/**
 * The embedded default: one process with the gateway and every service, the durable embedded event log and the
 * embedded read-model database in DATA_DIR. The event log opens first and holds DATA_DIR against other processes.
 */
export const StandaloneLive = GatewayHttpLive.pipe(
  Layer.provide(HttpServerLive),
  Layer.provide(ProjectorRuntime.layerRunning),
  Layer.provide(Layer.mergeAll(TokensLive, PasswordHasher.Default, Ids.Default)),
  Layer.provideMerge(ProjectorLive),
  Layer.provideMerge(ReadModelsLive),
  Layer.provideMerge(EventLogLive)
)
