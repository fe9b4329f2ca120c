import { Result, Schema } from "effect"
import { type KeyedBloomFilter, keyedBloomFromJSON } from "../keyedBloom.ts"
import type { RealDataFilters } from "./prepareTraining.ts"
import { ProtectedArtifact, ProtectionFilters, type ProtectionPlan } from "./ProtectionPlan.ts"

/** The stored artifact of a protected generator: its plan around the model's own artifact. */
export const protectedArtifact = (plan: ProtectionPlan, model: unknown): ProtectedArtifact => ({
  format: "synth.protected",
  formatVersion: 1,
  plan,
  model
})

export const isProtectedArtifact = (artifact: unknown): boolean =>
  typeof artifact === "object" && artifact !== null && (artifact as { format?: unknown }).format === "synth.protected"

export const decodeProtectedArtifact = (artifact: unknown): Result.Result<ProtectedArtifact, string> =>
  Result.mapError(Schema.decodeUnknownResult(ProtectedArtifact)(artifact), (error) => error.message)

export const filtersToJSON = (filters: RealDataFilters): ProtectionFilters => ({
  rows: filters.rows?.toJSON() ?? null,
  values: Array.from(filters.values, ([column, filter]) => ({ column, filter: filter.toJSON() }))
})

export const filtersFromJSON = (json: unknown): Result.Result<RealDataFilters, string> =>
  Result.mapBoth(Schema.decodeUnknownResult(ProtectionFilters)(json), {
    onFailure: (error) => error.message,
    onSuccess: (decoded) => ({
      rows: decoded.rows === null ? null : keyedBloomFromJSON(decoded.rows),
      values: new Map<string, KeyedBloomFilter>(decoded.values.map(({ column, filter }) => [column, keyedBloomFromJSON(filter)]))
    })
  })
