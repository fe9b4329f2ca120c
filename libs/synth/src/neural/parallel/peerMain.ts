/** The program of a data-parallel training's second thread (loaded by peerEntry.mjs). */
import { workerData } from "node:worker_threads"
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
  // The leader is blocked waiting for this thread's gradients: tell it at once rather than let it time out.
  exchange.fail()
  throw error
}
