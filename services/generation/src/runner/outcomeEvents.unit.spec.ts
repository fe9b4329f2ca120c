import { describe, expect, it } from "@effect/vitest"
import type { DatasetId, GeneratorId } from "@synth/contracts"
import { completed, type Done, sampleFailed } from "./outcomeEvents.ts"

const job = {
  generatorId: "0192f0c0-0000-7000-8000-0000000000a1" as GeneratorId,
  outputDatasetId: "0192f0c0-0000-7000-8000-0000000000c1" as DatasetId
}

const done: Done = {
  kind: "done",
  artifact: null,
  model: { format: "copula", formatVersion: 2, privacy: null },
  table: new Uint8Array(),
  filters: null,
  protection: null,
  rowCount: 10,
  columns: [],
  fitMs: 10.4,
  sampleMs: 2.6
}

describe("outcome events", () => {
  it("completes with the stored model, rounded timings, and no privacy or protection the worker did not report", () => {
    const event = completed(job, 2, done, { key: "generators/x/model", size: 5, sha256: "ab" }, 20)
    expect(event.payload).toStrictEqual({
      generatorId: job.generatorId,
      attempt: 2,
      outputDatasetId: job.outputDatasetId,
      rowCount: 10,
      model: { blobKey: "generators/x/model", sha256: "ab", size: 5, format: "copula", formatVersion: 2 },
      timings: { fitMs: 10, sampleMs: 3, totalMs: 20 }
    })
  })

  it("says why a sample failed: a lost thread, a rule's reason, else an unusable model", () => {
    expect(sampleFailed(job, { kind: "lost", message: "gone" }).payload.reason).toBe("worker_lost")
    expect(sampleFailed(job, { kind: "refused", message: "no rows", reason: "conditions_unmet" }).payload.reason).toBe("conditions_unmet")
    expect(sampleFailed(job, { kind: "refused", message: "unreadable" }).payload).toMatchObject({ reason: "training_failed", message: "unreadable" })
  })
})
