// The embedded read-model database's thread: opens PGlite and serves it on a loopback port, so that its work (a
// third of the embedded server's main-thread time under load, measured) runs beside the event loop, not on it.
// Messages: in, "close"; out, { kind: "serving", port } | { kind: "failed", message } | { kind: "closed" }.
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { embeddedPgliteOptions } from "@synth/eventlog/pglite-settings"
import { mkdir } from "node:fs/promises"
import { parentPort, workerData } from "node:worker_threads"

export interface PgliteServerData {
  readonly dataDir?: string | undefined
  /** A `dumpDataDir` tarball's bytes to start from instead of running initdb. */
  readonly loadDataDir?: Uint8Array | undefined
}

export type PgliteServerMessage =
  | { readonly kind: "serving"; readonly port: number }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "closed" }

const port = parentPort
if (port === null) throw new Error("pgliteServer.ts runs in a worker thread only")
const post = (message: PgliteServerMessage) => port.postMessage(message)
const { dataDir, loadDataDir } = workerData as PgliteServerData

try {
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true })
  const db = await PGlite.create({
    ...embeddedPgliteOptions(dataDir),
    ...(loadDataDir === undefined ? {} : { loadDataDir: new Blob([loadDataDir as Uint8Array<ArrayBuffer>]) })
  })
  // Port 0: the OS picks a free port, so several databases (tests, tools) never collide.
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0 })
  await server.start()
  port.on("message", (message: unknown) => {
    if (message !== "close") return
    // Closing flushes PGlite's state into the data dir; the parent ends the thread once it hears "closed".
    void server.stop().then(() => db.close()).then(() => post({ kind: "closed" }))
  })
  post({ kind: "serving", port: Number(server.getServerConn().split(":").at(-1)) })
} catch (error) {
  post({ kind: "failed", message: error instanceof Error ? error.message : String(error) })
}
