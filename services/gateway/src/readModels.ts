import { Topics } from "@synth/contracts"
import { makeProjection, migrationSet } from "@synth/sql"
import { userMigrations } from "./users/migrations.ts"
import { applyUserEvent } from "./users/projection.ts"

/** The gateway's read models: their migrations and the projections that fill them from the log. */
export const gatewayMigrations = migrationSet("gateway", userMigrations)

export const gatewayProjections = [
  makeProjection({
    name: "users",
    topics: [Topics.user.name],
    tables: ["users", "refresh_tokens"],
    apply: applyUserEvent
  })
] as const
