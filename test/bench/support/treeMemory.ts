// Resident memory of a process and everything under it, sampled in the background: what a benchmark quotes as "the
// server's memory" when the server runs worker threads (in its own VmRSS) or child processes (in theirs).
// Linux only (/proc); elsewhere every reading is 0.
import { readFileSync } from "node:fs"

const residentKiB = (pid: number): number => {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match === null ? 0 : Number(match[1])
  } catch {
    return 0
  }
}

/** The children of every thread of `pid` (a child belongs to the thread that spawned it). */
const childrenOf = (pid: number): Array<number> => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter((id) => id !== "").map(Number)
  } catch {
    return []
  }
}

/** VmRSS summed over `pid` and its descendants, in MiB. */
export const treeResidentMiB = (pid: number): number => {
  let kib = 0
  const pending = [pid]
  while (pending.length > 0) {
    const next = pending.pop()!
    kib += residentKiB(next)
    pending.push(...childrenOf(next))
  }
  return kib / 1024
}

export interface TreeSampler {
  /** The highest reading since the last `restart` (or the start), and the reading now. */
  readonly peak: () => number
  readonly now: () => number
  /** Starts a new window: its peak begins at the reading now. */
  readonly restart: () => void
  readonly stop: () => Promise<void>
}

/** Samples `pid`'s tree every `intervalMs` until stopped. */
export const sampleTree = (pid: number, intervalMs = 100): TreeSampler => {
  let peak = treeResidentMiB(pid)
  let running = true
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, treeResidentMiB(pid))
      await new Promise((wake) => setTimeout(wake, intervalMs))
    }
  })()
  return {
    peak: () => Math.max(peak, treeResidentMiB(pid)),
    now: () => treeResidentMiB(pid),
    restart: () => {
      peak = treeResidentMiB(pid)
    },
    stop: async () => {
      running = false
      await loop
    }
  }
}
