import { allTopicNames, Topics } from "@synth/contracts"
import { makeProjection, migrationSet } from "@synth/sql"
import { auditMigrations } from "./audit/migrations.ts"
import { applyAuditEvent, auditProjectionName } from "./audit/projection.ts"
import { datasetMigrations } from "./datasets/migrations.ts"
import { applyDatasetEvent } from "./datasets/projection.ts"
import { evaluationMigrations } from "./evaluations/migrations.ts"
import { applyEvaluationEvent } from "./evaluations/projection.ts"
import { generatorMigrations } from "./generators/migrations.ts"
import { applyGeneratorEvent } from "./generators/projection.ts"
import { userMigrations } from "./users/migrations.ts"
import { applyUserEvent } from "./users/projection.ts"

/** The gateway's read models: their migrations and the projections that fill them from the log. */
export const gatewayMigrations = migrationSet("gateway", { ...userMigrations, ...datasetMigrations, ...generatorMigrations, ...evaluationMigrations, ...auditMigrations })

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
    // A completed generator or sample names its output dataset, appended just before: the dataset is visible first.
    // Only those batches wait; the rest (requests, progress) go at their own pace.
    after: ["datasets"],
    afterFor: ["generator.completed", "generator.sampled"],
    apply: applyGeneratorEvent
  }),
  makeProjection({
    name: "evaluations",
    topics: [Topics.evaluation.name],
    tables: ["evaluations"],
    apply: applyEvaluationEvent
  }),
  makeProjection({
    name: auditProjectionName,
    topics: allTopicNames,
    tables: ["audit_events"],
    // Read by auditors at their own pace: they wait for it to catch up (AuditService), writers do not.
    readYourWrites: false,
    apply: applyAuditEvent
  })
] as const
