import { PGlite } from "@electric-sql/pglite"
import { type SqlClient, type SqlError } from "effect/sql"
import { Effect, Layer } from "effect"
import { type EmbeddedDatabaseError, layerEmbedded } from "../database/embedded.ts"

// initdb takes ~4 s, loading its dump ~0.5 s: a process pays it once, and every test gets a database of its own.
let template: Promise<Blob> | undefined

const initdbTemplate = async () => {
  const db = await PGlite.create()
  try {
    return await db.dumpDataDir("none")
  } finally {
    await db.close()
  }
}

/** A fresh, empty in-memory read-model database for each use of the layer. */
export const layerEmbeddedTest: Layer.Layer<SqlClient.SqlClient, EmbeddedDatabaseError | SqlError.SqlError> =
  Layer.unwrap(
    Effect.map(Effect.promise(() => (template ??= initdbTemplate())), (loadDataDir) => layerEmbedded({ loadDataDir }))
  )
