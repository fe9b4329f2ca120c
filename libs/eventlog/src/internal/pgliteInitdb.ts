// A thread that only creates a database in a fresh data dir (initdb) and ends: see freshDataDir.ts.
import { PGlite } from "@electric-sql/pglite"
import { workerData } from "node:worker_threads"
import { embeddedPgliteOptions } from "./pgliteSettings.ts"

const { dataDir } = workerData as { readonly dataDir: string }
const db = await PGlite.create(embeddedPgliteOptions(dataDir))
await db.close()
