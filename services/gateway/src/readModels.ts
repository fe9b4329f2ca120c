import { Topics } from "@synth/contracts"
import { makeProjection, migrationSet } from "@synth/sql"
import { datasetMigrations } from "./datasets/migrations.ts"
import { applyDatasetEvent } from "./datasets/projection.ts"
import { generatorMigrations } from "./generators/migrations.ts"
import { applyGeneratorEvent } from "./generators/projection.ts"
import { userMigrations } from "./users/migrations.ts"
import { applyUserEvent } from "./users/projection.ts"

/** The gateway's read models: their migrations and the projections that fill them from the log. */
export const gatewayMigrations = migrationSet("gateway", { ...userMigrations, ...datasetMigrations, ...generatorMigrations })

export const gatewayProjections = [
  makeProjection({
    name: "users",
    topics: [Topics.user.name],
    tables: ["users", "refresh_tokens"],
    apply: applyUserEvent
  }),
  makeProjection({
    name: "datasets",
    topics: [Topics.dataset.name],
    tables: ["datasets", "dataset_pii_scans"],
    apply: applyDatasetEvent
  }),
  makeProjection({
    name: "generators",
    topics: [Topics.generator.name],
    tables: ["generators", "generator_outputs"],
    apply: applyGeneratorEvent
  })
] as const
