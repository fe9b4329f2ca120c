import { EvaluationGeneratorPrivacy } from "@synth/contracts"
import { holdoutRows } from "@synth/protect"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import type { GeneratorRow } from "../generators/GeneratorRepository.ts"
import { generatorPrivacyOf } from "./generatorPrivacy.ts"

const older: GeneratorRow = {
  id: "0190f5a6-0000-7000-8000-0000000000a1",
  ownerId: "0190f5a6-0000-7000-8000-000000000001",
  datasetId: "0190f5a6-0000-7000-8000-0000000000d1",
  generatorType: "ctgan",
  parameters: { num_rows: 100, epochs: 10, batch_size: 50, target_epsilon: null },
  seed: 1234,
  status: "completed",
  phase: null,
  progress: 1,
  attempts: 1,
  outputDatasetId: "0190f5a6-0000-7000-8000-0000000000d2",
  estimatedSeconds: 1,
  lossHistory: [],
  startedAt: null,
  fitMs: null,
  sampleMs: null,
  totalMs: null,
  model: null,
  error: null,
  columns: null,
  privacy: null,
  rules: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z"
}

const columns = [
  { name: "email", role: "direct_identifier", handling: "fake", piiType: "email_address" },
  { name: "zip", role: "quasi_identifier", handling: "keep", piiType: "us_zip_code" },
  { name: "plan", role: "data", handling: "keep", piiType: null }
] as const

const protections = { rareCategoryThreshold: 7, valueProtection: true, rareCategoryProtection: true, similarityFilter: true, holdoutShare: 0.2 }

describe("generatorPrivacyOf", () => {
  it("is absent for a generator made before roles and protections existed", () => {
    expect(generatorPrivacyOf(older)).toBeUndefined()
  })

  it("carries the roles, k and the holdout draw as the generation job made it, valid for the event", () => {
    const privacy = generatorPrivacyOf({ ...older, columns, privacy: { protections, rolesFrom: "basic", trainingRows: 400, holdoutRows: 100 } })!
    expect(privacy).toEqual({ columns, holdout: { share: 0.2, maxRows: 10_000, seed: 1234, rows: 100 }, rareCategoryThreshold: 7 })
    expect(Schema.decodeUnknownSync(EvaluationGeneratorPrivacy)(privacy)).toEqual(privacy)
    // The evaluation draws the same rows again from these settings.
    expect(holdoutRows(500, { share: privacy.holdout!.share, maxRows: privacy.holdout!.maxRows }, privacy.holdout!.seed)).toHaveLength(100)
  })

  it("has no holdout before the job recorded how many rows it held out", () => {
    expect(generatorPrivacyOf({ ...older, columns, privacy: { protections } })).toEqual({ columns, holdout: null, rareCategoryThreshold: 7 })
  })
})
