import { Worker } from "node:worker_threads"
import { PeerLost } from "./gradientExchange.ts"
import type { PeerRequest } from "./protocol.ts"

const entry = new URL("./peerEntry.mjs", import.meta.url)

/** Replicas that differ after identical updates mean a defect in the exchange, not a property of the data. */
export class ReplicasDiverged extends Error {
  readonly _tag = "ReplicasDiverged"
}

/** What a peer thread posts, once: its final weights, or why it stopped. */
export type PeerMessage =
  | { readonly kind: "finished"; readonly finalWeights: Float32Array }
  | { readonly kind: "failed"; readonly message: string }

export interface Peer {
  readonly worker: Worker
  /** The weights the peer ends with (CTGAN: its generator's, TVAE: its decoder's); rejects when it dies first. */
  readonly finished: Promise<Float32Array>
}

/**
 * Starts the second thread of a data-parallel training. Its request travels as workerData (a message posted after
 * construction can be lost under Deno while the entry module loads). During training the two threads talk only
 * through the exchange's shared memory (a failing peer raises its failure flag); at the end the peer posts its
 * final weights, listened for from the start so that the message cannot arrive unheard.
 */
export const startPeer = (request: PeerRequest): Peer => {
  const worker = new Worker(entry, { workerData: request })
  const finished = new Promise<Float32Array>((resolve, reject) => {
    worker.on("message", (message: PeerMessage) => {
      if (message.kind === "finished") resolve(message.finalWeights)
      else reject(new PeerLost(`the other training thread failed: ${message.message}`))
    })
    worker.on("error", (error) => reject(new PeerLost(`the other training thread failed: ${error.message}`)))
    worker.on("exit", (code) => reject(new PeerLost(`the other training thread exited (code ${code})`)))
  })
  // Awaited only when the training gets to its end; a training that fails first has its own error to report.
  finished.catch(() => {})
  return { worker, finished }
}

/**
 * Checks the peer's final weights against the leader's, value for value: both threads applied the same
 * averaged gradients to the same starting weights, so they must agree bit for bit.
 */
export const confirmReplicas = async (peer: Peer, leaderWeights: Float32Array): Promise<void> => {
  const peerWeights = await peer.finished
  const differing = peerWeights.length !== leaderWeights.length
    ? 0
    : leaderWeights.findIndex((value, i) => !Object.is(value, peerWeights[i]))
  if (differing !== -1) throw new ReplicasDiverged(`data-parallel replicas diverged (first differing weight: ${differing})`)
}
