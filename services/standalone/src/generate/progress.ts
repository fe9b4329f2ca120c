import { SingleBar } from "cli-progress"
import { Console, Effect } from "effect"
import { progressLine, type ProgressSnapshot, stageOf } from "./progressLine.ts"

/**
 * A followed job's progress on stderr: a live bar when stderr is a terminal; otherwise (logs, pipes, CI) one line
 * each time the job enters a stage, however often it is polled.
 */
export const jobProgress = () => {
  const followedSince = performance.now()
  const bar = process.stderr.isTTY === true
    ? new SingleBar({ format: "|{bar}| {line}", stream: process.stderr, hideCursor: true })
    : undefined
  let barStarted = false
  let stageShown: string | undefined

  const show = (snapshot: ProgressSnapshot): Effect.Effect<void> =>
    Effect.suspend(() => {
      const line = progressLine(snapshot, performance.now() - followedSince)
      if (bar !== undefined) {
        if (barStarted) bar.update(snapshot.progress, { line })
        else bar.start(100, snapshot.progress, { line })
        barStarted = true
        return Effect.void
      }
      const stage = stageOf(snapshot)
      if (snapshot.status !== "running" || stage === stageShown) return Effect.void
      stageShown = stage
      return Console.error(line)
    })

  /** Leaves the bar's last state on the screen. */
  const stop = Effect.sync(() => {
    if (barStarted) bar?.stop()
  })

  return { show, stop }
}
