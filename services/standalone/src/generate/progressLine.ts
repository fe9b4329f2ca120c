import type { Generator } from "@synth/contracts"

/** What a progress line shows of a generator record. */
export type ProgressSnapshot = Pick<Generator, "status" | "phase" | "progress" | "loss_history">

/** `queued`, `fitting` or `sampling` while running; the status once the job ended. */
export const stageOf = (snapshot: Pick<ProgressSnapshot, "status" | "phase">): string => snapshot.phase ?? snapshot.status

/** `m:ss`, or `h:mm:ss` from an hour on. */
export const formatElapsed = (milliseconds: number): string => {
  const total = Math.max(0, Math.floor(milliseconds / 1000))
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = String(total % 60).padStart(2, "0")
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`
}

/** Four significant digits, without the trailing zeros and exponents `toPrecision` leaves. */
const formatLoss = (value: number) => String(Number(value.toPrecision(4)))

/** The last epoch and its losses, e.g. `epoch 12: generator 0.8123, discriminator -0.05`; undefined before the first. */
export const lastLosses = (history: ProgressSnapshot["loss_history"]): string | undefined => {
  const last = history.at(-1)
  if (last === undefined) return undefined
  const losses = Object.entries(last.losses).map(([name, value]) => `${name} ${formatLoss(value)}`)
  return losses.length === 0 ? `epoch ${last.epoch}` : `epoch ${last.epoch}: ${losses.join(", ")}`
}

/** One line of a job's progress: stage, percent, the last epoch's losses (neural models) and the time followed. */
export const progressLine = (snapshot: ProgressSnapshot, elapsedMs: number): string =>
  [stageOf(snapshot), `${snapshot.progress}%`, lastLosses(snapshot.loss_history), `${formatElapsed(elapsedMs)} elapsed`]
    .filter((part) => part !== undefined)
    .join(" | ")
