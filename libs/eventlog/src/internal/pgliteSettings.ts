// How the embedded server opens its PGlite databases (the event log's and the read models'): one place, so both
// keep the same memory settings.
import { PGlite, type PGliteOptions } from "@electric-sql/pglite"

/**
 * Postgres's default shared buffer pool is 128 MB, and PGlite touches all of it at start: each database held about
 * 150 MiB resident while idle (measured: 153 MiB for the WebAssembly memory at 128 MB, 31 MiB at 16 MB). The data
 * directory is an ordinary folder, so pages that leave this smaller pool are read back from the operating system's
 * page cache, not from disk.
 */
export const embeddedSharedBuffers = "16MB"

/** PGlite's options for an embedded database in `dataDir` (in memory when undefined). */
export const embeddedPgliteOptions = (dataDir: string | undefined): PGliteOptions => ({
  ...(dataDir === undefined ? {} : { dataDir }),
  startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${embeddedSharedBuffers}`]
})
