export {
  dropEmbeddedDatabase,
  layerEmbeddedFromConfig,
  layerFromConfig,
  readModelsDirectory
} from "./database/config.ts"
export { EmbeddedDatabaseError, type EmbeddedOptions, layerEmbedded } from "./database/embedded.ts"
export { layerPostgres, layerPostgresFromConfig } from "./database/postgres.ts"
export {
  layerMigrations,
  type Migrations,
  type MigrationSet,
  migrationSet,
  runMigrations
} from "./migrations/migrations.ts"
export {
  ProjectionFailed,
  type ProjectionPosition,
  ProjectionTimeout,
  UnknownProjection
} from "./projector/errors.ts"
export {
  type AnyProjection,
  makeBatchProjection,
  makeProjection,
  type Projected,
  type Projection
} from "./projector/Projection.ts"
export { jsonRows } from "./projector/jsonRows.ts"
export { type EventsOf, waves, writeInWaves, type Writers } from "./projector/waves.ts"
export type { CatchUpProgress, CatchUpSummary, OnProgress } from "./projector/catchUp.ts"
export { type ProjectionLag, ProjectorRuntime, type ProjectorService } from "./projector/ProjectorRuntime.ts"
