/**
 * The program of a data-parallel training's second thread (loaded by peerEntry.mjs). It never ends with an uncaught
 * error: a failure raises the exchange's flag (the leader may be blocked waiting for this thread's gradients) and is
 * posted to the leader as a message. Under Deno a worker outlives a terminated parent (a cancelled job); its uncaught
 * error would then have no one to go to, so this thread just stops once the leader is gone (PeerLost).
 */
import { parentPort, workerData } from "node:worker_threads"
import { runCtganPeer } from "../ctgan/ctganPeer.ts"
import { runTvaePeer } from "../tvae/tvaePeer.ts"
import { gradientExchange } from "./gradientExchange.ts"
import type { PeerRequest } from "./protocol.ts"

const request = workerData as PeerRequest
const exchange = gradientExchange({ ...request.exchange, party: 1 })
try {
  if (request.kind === "ctgan") await runCtganPeer(request, exchange)
  else await runTvaePeer(request, exchange)
} catch (error) {
  exchange.fail()
  parentPort?.postMessage({ kind: "failed", message: error instanceof Error ? error.message : String(error) })
}
