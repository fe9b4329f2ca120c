import { SingleBar } from "cli-progress"

const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1)

/** Sizes as people read them: kB below a megabyte, MB above (both powers of ten, as file managers show). */
const readable = (bytes: number) => (bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${megabytes(bytes)} MB`)

/**
 * Bytes sent of `total`: a live bar when stderr is a terminal; otherwise (logs, pipes, CI) nothing until the one
 * summary line `finish` returns.
 */
export const byteProgress = (total: number) => {
  const started = performance.now()
  let sentSoFar = 0
  const bar = process.stderr.isTTY === true
    ? new SingleBar({
        format: "uploading |{bar}| {percentage}% | {sentMB}/{totalMB} MB | {speed} MB/s | {eta_formatted} left",
        stream: process.stderr,
        hideCursor: true
      })
    : undefined
  bar?.start(total, 0, { sentMB: "0.0", totalMB: megabytes(total), speed: "0.0" })

  const update = (sent: number) => {
    sentSoFar = sent
    const seconds = (performance.now() - started) / 1000
    bar?.update(sent, { sentMB: megabytes(sent), speed: seconds > 0 ? megabytes(sent / seconds) : "0.0" })
  }

  /** Stops the bar; the summary line for output without one (undefined when the bar showed it all). */
  const finish = (): string | undefined => {
    bar?.stop()
    if (bar !== undefined) return undefined
    const seconds = (performance.now() - started) / 1000
    return `sent ${readable(sentSoFar)} of ${readable(total)} in ${seconds.toFixed(2)} s` +
      (seconds > 0 ? ` (${megabytes(sentSoFar / seconds)} MB/s)` : "")
  }

  return { update, finish }
}
