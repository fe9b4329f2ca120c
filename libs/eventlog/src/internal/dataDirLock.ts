import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { EventLogError } from "../EventLog.ts"

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const readHolder = (file: string) => {
  try {
    return Number.parseInt(fs.readFileSync(file, "utf8"), 10)
  } catch {
    return Number.NaN
  }
}

const lock = (dataDir: string, file: string) => {
  fs.mkdirSync(dataDir, { recursive: true })
  // The second attempt follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" })
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
    const holder = readHolder(file)
    if (Number.isInteger(holder) && isAlive(holder)) {
      const who = holder === process.pid ? "this process" : `process ${holder}`
      throw new Error(`${dataDir} is in use by ${who}; stop it or point DATA_DIR elsewhere`)
    }
    fs.rmSync(file, { force: true })
  }
  throw new Error(`another process keeps taking ${file}`)
}

/**
 * PGlite does not lock its data directory: a second instance (in this or another process) opens it happily and the
 * two corrupt each other. So the log holds a lock file with its pid, and takes over a lock whose process is gone
 * (the normal state after a crash or kill -9).
 */
export const acquireDataDirLock = (dataDir: string) => {
  const file = path.join(dataDir, "eventlog.lock")
  return Effect.acquireRelease(
    Effect.try({
      try: () => lock(dataDir, file),
      catch: (cause) =>
        new EventLogError({
          reason: `Cannot lock the event log's data directory: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause
        })
    }),
    () => Effect.sync(() => readHolder(file) === process.pid && fs.rmSync(file, { force: true }))
  )
}
