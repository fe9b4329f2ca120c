import { allTopicNames, Topics } from "@synth/contracts"
import { makeBatchProjection, migrationSet } from "@synth/sql"
import { auditMigrations } from "./audit/migrations.ts"
import { applyAuditEvents, auditProjectionName } from "./audit/projection.ts"
import { datasetMigrations } from "./datasets/migrations.ts"
import { applyDatasetEvents } from "./datasets/projection.ts"
import { evaluationMigrations } from "./evaluations/migrations.ts"
import { applyEvaluationEvents } from "./evaluations/projection.ts"
import { generatorMigrations } from "./generators/migrations.ts"
import { applyGeneratorEvents } from "./generators/projection.ts"
import { userMigrations } from "./users/migrations.ts"
import { applyUserEvents } from "./users/projection.ts"

/** The gateway's read models: their migrations and the projections that fill them from the log. */
export const gatewayMigrations = migrationSet("gateway", { ...userMigrations, ...datasetMigrations, ...generatorMigrations, ...evaluationMigrations, ...auditMigrations })

export const gatewayProjections = [
  makeBatchProjection({
    name: "users",
    topics: [Topics.user.name],
    tables: ["users", "refresh_tokens"],
    applyBatch: applyUserEvents
  }),
  makeBatchProjection({
    name: "datasets",
    topics: [Topics.dataset.name],
    tables: ["datasets", "dataset_pii_scans"],
    applyBatch: applyDatasetEvents
  }),
  makeBatchProjection({
    name: "generators",
    topics: [Topics.generator.name],
    tables: ["generators", "generator_outputs"],
    // A completed generator or sample names its output dataset, appended just before: the dataset is visible first.
    // Only those batches wait; the rest (requests, progress) go at their own pace.
    after: ["datasets"],
    afterFor: ["generator.completed", "generator.sampled"],
    applyBatch: applyGeneratorEvents
  }),
  makeBatchProjection({
    name: "evaluations",
    topics: [Topics.evaluation.name],
    tables: ["evaluations"],
    applyBatch: applyEvaluationEvents
  }),
  makeBatchProjection({
    name: auditProjectionName,
    topics: allTopicNames,
    tables: ["audit_events"],
    // Read by auditors at their own pace: they wait for it to catch up (AuditService), writers do not.
    readYourWrites: false,
    applyBatch: applyAuditEvents
  })
] as const
