import { Data, Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"

export class DataDirInUse extends Data.TaggedError("DataDirInUse")<{ readonly dataDir: string; readonly pid: number }> {
  override get message() {
    return `The data directory ${this.dataDir} is in use by process ${this.pid}. Stop that process first.`
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Holds DATA_DIR for this process: the embedded databases must never be opened by two processes at once (a server
 * and `synth replay`, or two servers). A pid file rather than a time-based lock (such as proper-lockfile's mtime
 * staleness) because after `kill -9` the next start must not wait for a lease to expire: a dead pid is stale at once.
 */
export const holdDataDir = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      await fs.mkdir(dataDir, { recursive: true })
      const lockFile = path.join(dataDir, "synth.pid")
      for (;;) {
        try {
          await fs.writeFile(lockFile, String(process.pid), { flag: "wx" })
          return { lockFile, owner: undefined }
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
        }
        const owner = Number.parseInt(await fs.readFile(lockFile, "utf8").catch(() => ""), 10)
        if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) return { lockFile, owner }
        await fs.rm(lockFile, { force: true })
      }
    }).pipe(
      Effect.flatMap(({ lockFile, owner }) =>
        owner === undefined ? Effect.succeed(lockFile) : new DataDirInUse({ dataDir, pid: owner })
      )
    ),
    (lockFile) =>
      Effect.promise(async () => {
        const owner = await fs.readFile(lockFile, "utf8").catch(() => "")
        if (owner === String(process.pid)) await fs.rm(lockFile, { force: true })
      })
  )
