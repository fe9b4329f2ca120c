import { describe, expect, it } from "@effect/vitest"
import type { Report } from "../worker/runInWorker.ts"
import { applyReport, initialProgress, type Progress } from "./progress.ts"

const fold = (epochs: number | null, ...reports: ReadonlyArray<Report>): Progress =>
  reports.reduce(applyReport(epochs), { ...initialProgress, dirty: false })

describe("applyReport", () => {
  it("maps fitting into 5–85% and sampling into 85–99%", () => {
    expect(fold(null, { kind: "progress", phase: "fitting", fraction: 0.5 })).toMatchObject({ phase: "fitting", progress: 45, dirty: true })
    expect(fold(null, { kind: "progress", phase: "sampling", fraction: 1 })).toMatchObject({ phase: "sampling", progress: 99 })
  })

  it("never moves backwards", () => {
    const state = fold(null, { kind: "progress", phase: "fitting", fraction: 0.9 }, { kind: "progress", phase: "fitting", fraction: 0.1 })
    expect(state.progress).toBe(77)
  })

  it("collects each epoch's losses and moves by the model's epochs", () => {
    const state = fold(10, { kind: "epoch", epoch: 1, losses: { generator: 1.5 } }, { kind: "epoch", epoch: 2, losses: { generator: 1.2 } })
    expect(state).toMatchObject({ phase: "fitting", progress: 21, dirty: true })
    expect(state.losses).toEqual([{ epoch: 1, losses: { generator: 1.5 } }, { epoch: 2, losses: { generator: 1.2 } }])
  })

  it("keeps the progress of a model without epochs on an epoch report", () => {
    expect(fold(null, { kind: "epoch", epoch: 3, losses: {} }).progress).toBe(initialProgress.progress)
  })

  it("holds the preparation until an event says it; a load changes nothing", () => {
    const prepared: Report = { kind: "prepared", scan: "basic", columns: [], trainingRows: 80, holdoutRows: 20 }
    expect(fold(null, prepared).prepared).toEqual({ scan: "basic", columns: [], trainingRows: 80, holdoutRows: 20 })
    expect(fold(null, { kind: "loaded", trainingRows: 80, columns: [] })).toEqual({ ...initialProgress, dirty: false })
  })
})
