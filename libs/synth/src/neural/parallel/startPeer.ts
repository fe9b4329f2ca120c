import { Worker } from "node:worker_threads"
import { Data } from "effect"
import { PeerLost } from "./gradientExchange.ts"
import type { PeerRequest } from "./protocol.ts"

const entry = new URL("./peerEntry.mjs", import.meta.url)

/** Replicas that differ after identical updates mean a defect in the exchange, not a property of the data. */
export class ReplicasDiverged extends Data.TaggedError("ReplicasDiverged")<{ readonly message: string }> {}

/** What a peer thread posts: that it is ready for its request (once booted), then its final weights or why it stopped. */
export type PeerMessage =
  | { readonly kind: "ready" }
  | { readonly kind: "finished"; readonly finalWeights: Float32Array }
  | { readonly kind: "failed"; readonly message: string }

export interface Peer {
  /** The weights the peer ends with (CTGAN: its generator's, TVAE: its decoder's); rejects when it dies first. */
  readonly finished: Promise<Float32Array>
}

/** A peer thread loading its modules, tfjs and ONNX Runtime while the leader fits the transformer and builds the networks. */
export interface PeerBoot {
  /**
   * Posts the peer its training once it is ready, and resolves then. Await it before the first step: the leader's
   * steps block in the exchange, so the ready message would never be heard after them.
   */
  readonly start: (request: PeerRequest) => Promise<Peer>
  /** Ends the thread: after its training, or when the leader fails or trains alone after all. */
  readonly stop: () => void
}

/**
 * Starts the second thread of a data-parallel training before the leader knows what it will train (booting it takes
 * ~3 s, about what the transformer's fit takes, so the two overlap). The thread says when it listens, and only then is
 * the request posted: a message posted earlier can be lost under Deno while the entry module loads. During training
 * the two threads talk only through the exchange's shared memory (a failing peer raises its failure flag); at the
 * end the peer posts its final weights, listened for from the start so that no message arrives unheard.
 */
export const bootPeer = (): PeerBoot => {
  const worker = new Worker(entry)
  let markReady: () => void = () => {}
  let lose: (reason: PeerLost) => void = () => {}
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve
    lose = reject
  })
  const finished = new Promise<Float32Array>((resolve, reject) => {
    const fail = (reason: string) => {
      const lost = new PeerLost({ message: `the other training thread ${reason}` })
      lose(lost)
      reject(lost)
    }
    worker.on("message", (message: PeerMessage) => {
      if (message.kind === "ready") markReady()
      else if (message.kind === "finished") resolve(message.finalWeights)
      else fail(`failed: ${message.message}`)
    })
    worker.on("error", (error: unknown) => fail(`failed: ${error instanceof Error ? error.message : String(error)}`))
    worker.on("exit", (code) => fail(`exited (code ${code})`))
  })
  // Awaited only when the training gets to its end; a training that fails first has its own error to report.
  finished.catch(() => {})
  ready.catch(() => {})
  return {
    start: async (request) => {
      await ready
      worker.postMessage(request)
      return { finished }
    },
    stop: () => void worker.terminate()
  }
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
  if (differing !== -1) throw new ReplicasDiverged({ message: `data-parallel replicas diverged (first differing weight: ${differing})` })
}
