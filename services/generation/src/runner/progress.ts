import type { ResolvedColumn } from "@synth/contracts"
import type { Report } from "../worker/runInWorker.ts"

/** Where a running job's progress stands: what the next progress event says. */
export interface Progress {
  readonly phase: "fitting" | "sampling"
  readonly progress: number
  readonly losses: ReadonlyArray<{ readonly epoch: number; readonly losses: Readonly<Record<string, number>> }>
  /** Changed since the last progress event. */
  readonly dirty: boolean
  /** The worker's resolved roles and row split, until `generator.prepared` says them. */
  readonly prepared: Prepared | null
}

export interface Prepared {
  readonly scan: "basic" | "enhanced" | "generation"
  readonly columns: ReadonlyArray<ResolvedColumn>
  readonly trainingRows: number
  readonly holdoutRows: number
}

/** Progress bands: loading the table is the first 5%, fitting up to 85%, sampling and storing the rest. */
const fittingBand = [5, 85] as const
const samplingBand = [85, 99] as const
const inBand = (band: readonly [number, number], fraction: number) => Math.floor(band[0] + (band[1] - band[0]) * fraction)

/** A job that has only just started: the first progress event says so. */
export const initialProgress: Progress = { phase: "fitting", progress: fittingBand[0], losses: [], dirty: true, prepared: null }

/** Folds a worker's report into the progress: never backwards; `epochs` (null where the model has none) scales epochs. */
export const applyReport = (epochs: number | null) => (state: Progress, report: Report): Progress => {
  switch (report.kind) {
    case "loaded":
      return state
    case "prepared": {
      const { columns, holdoutRows, scan, trainingRows } = report
      return { ...state, prepared: { scan, columns, trainingRows, holdoutRows } }
    }
    case "progress":
      return {
        ...state,
        phase: report.phase,
        progress: Math.max(state.progress, inBand(report.phase === "fitting" ? fittingBand : samplingBand, report.fraction)),
        dirty: true
      }
    case "epoch":
      return {
        ...state,
        phase: "fitting",
        progress: epochs === null ? state.progress : Math.max(state.progress, inBand(fittingBand, report.epoch / epochs)),
        losses: [...state.losses, { epoch: report.epoch, losses: report.losses }],
        dirty: true
      }
  }
}
