/**
 * The program of a data-parallel training's second thread (loaded by peerEntry.mjs). It never ends with an uncaught
 * error: a failure raises the exchange's flag (the leader may be blocked waiting for this thread's gradients) and is
 * posted to the leader as a message. Under Deno a worker outlives a terminated parent (a cancelled job); its uncaught
 * error would then have no one to go to, so this thread just stops once the leader is gone (PeerLost).
 */
import { parentPort } from "node:worker_threads"
import { runCtganPeer } from "../ctgan/ctganPeer.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { runTvaePeer } from "../tvae/tvaePeer.ts"
import { gradientExchange } from "./gradientExchange.ts"
import type { PeerRequest } from "./protocol.ts"
import type { PeerMessage } from "./startPeer.ts"

const post = (message: PeerMessage) => parentPort?.postMessage(message)
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * How long a booted thread waits for its request. Under Node it dies with its parent; under Deno it would outlive a
 * leader cancelled while preparing the training, so it gives up (closing its port ends the thread) after this long.
 */
const REQUEST_PATIENCE_MS = 10 * 60 * 1000

/** Waits for the request, said ready once listening for it. */
const request = () =>
  new Promise<PeerRequest>((resolve) => {
    const giveUp = setTimeout(() => parentPort?.close(), REQUEST_PATIENCE_MS)
    parentPort?.once("message", (message: PeerRequest) => {
      clearTimeout(giveUp)
      resolve(message)
    })
    post({ kind: "ready" })
  })

const train = async (request: PeerRequest): Promise<void> => {
  const exchange = gradientExchange({ ...request.exchange, party: 1 })
  try {
    if (request.kind === "ctgan") await runCtganPeer(request, exchange)
    else await runTvaePeer(request, exchange)
  } catch (error) {
    exchange.fail()
    post({ kind: "failed", message: reason(error) })
  }
}

// Not awaited: the module's evaluation (and so the entry's top-level await) ends at once, before any message is
// expected; under Deno a message that arrives while the entry's top-level await runs is lost. tfjs's wasm backend
// and ONNX Runtime start while the leader prepares the request.
void startWasmBackend().then(
  () => request().then(train),
  (error: unknown) => post({ kind: "failed", message: reason(error) })
)
