import { SingleBar } from "cli-progress"

const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1)

/** Sizes as people read them: kB below a megabyte, MB above (both powers of ten, as file managers show). */
export const readableSize = (bytes: number) => (bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${megabytes(bytes)} MB`)

const PULSE_WIDTH = 40
const PULSE_BLOCK = 8
/** One sweep of the block from one end to the other. */
const PULSE_SWEEP_MS = 1500

/**
 * An indeterminate bar for a transfer of unknown size: a block sweeping back and forth with time, drawn in the
 * characters of cli-progress's default bar so both kinds look alike.
 */
export const pulse = (elapsedMs: number): string => {
  const travel = PULSE_WIDTH - PULSE_BLOCK
  const phase = (elapsedMs / PULSE_SWEEP_MS) % 2
  const start = Math.round((phase <= 1 ? phase : 2 - phase) * travel)
  return "-".repeat(start) + "=".repeat(PULSE_BLOCK) + "-".repeat(travel - start)
}

export interface TransferSummary {
  /** "sent" or "received". */
  readonly done: string
  readonly bytes: number
  /** Undefined when the size was not known beforehand. */
  readonly total: number | undefined
  readonly seconds: number
}

/** The line a transfer ends with where no bar was drawn: what moved, in how long, how fast. */
export const summaryLine = ({ bytes, done, seconds, total }: TransferSummary): string =>
  `${done} ${readableSize(bytes)}${total === undefined ? "" : ` of ${readableSize(total)}`} in ${seconds.toFixed(2)} s` +
  (seconds > 0 ? ` (${megabytes(bytes / seconds)} MB/s)` : "")

export interface ByteProgressOptions {
  /** What the bar says it is doing: "uploading", "downloading". */
  readonly doing: string
  /** What the summary says was done: "sent", "received". */
  readonly done: string
  /** Bytes to move; undefined when unknown (a response without Content-Length): the bar is then indeterminate. */
  readonly total: number | undefined
}

/**
 * Bytes moved so far: a live bar on stderr when it is a terminal (with percent and time left when the total is
 * known, a sweeping block otherwise); elsewhere (logs, pipes, CI) nothing until the one summary line `finish` returns.
 */
export const byteProgress = ({ doing, done, total }: ByteProgressOptions) => {
  const started = performance.now()
  let movedSoFar = 0
  const known = total !== undefined
  const bar = process.stderr.isTTY === true
    ? new SingleBar({
        format: known
          ? `${doing} |{bar}| {percentage}% | {movedMB}/{totalMB} MB | {speed} MB/s | {eta_formatted} left`
          : `${doing} |{pulse}| {movedMB} MB | {speed} MB/s | {duration_formatted}`,
        stream: process.stderr,
        hideCursor: true
      })
    : undefined
  // Without a total the bar's own value is never used: 1 keeps cli-progress's percentage and ETA arithmetic finite.
  bar?.start(total ?? 1, 0, { movedMB: "0.0", totalMB: megabytes(total ?? 0), speed: "0.0", pulse: pulse(0) })

  const update = (moved: number) => {
    movedSoFar = moved
    const elapsedMs = performance.now() - started
    const payload = { movedMB: megabytes(moved), speed: elapsedMs > 0 ? megabytes(moved / (elapsedMs / 1000)) : "0.0", pulse: pulse(elapsedMs) }
    if (known) bar?.update(moved, payload)
    else bar?.update(payload)
  }

  /** Stops the bar; the summary line for output without one (undefined when the bar showed it all). */
  const finish = (): string | undefined => {
    bar?.stop()
    if (bar !== undefined) return undefined
    return summaryLine({ done, bytes: movedSoFar, total, seconds: (performance.now() - started) / 1000 })
  }

  return { update, finish }
}
