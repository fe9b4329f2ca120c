/**
 * Two threads training one model data-parallel meet here once per optimiser step: each writes its gradients (one
 * flat Float32Array) into shared memory, waits for the other, and both take the same weighted average, computed in
 * the same order on both sides, so the two replicas apply bit-identical updates and never drift apart.
 *
 * Layout of the SharedArrayBuffer: a header of Int32 counters (arrivals, failure flag), then two rounds × two parties
 * of `floats` values. Rounds alternate between the two halves: a party can be at most one round ahead of the other
 * (it cannot pass round r + 1 before the other has arrived there, which it does only after reading round r), so the
 * half it overwrites has always been read.
 *
 * Waiting blocks the thread (Atomics.wait), which is what both parties want between steps: the step cannot go on
 * without the other's gradients. A party that dies sets no flag, so waits give up after `patienceMs` with PeerLost.
 */
import { Data } from "effect"

const HEADER_INTS = 4
const ARRIVED = 0
const FAILED = 1
const HEADER_BYTES = HEADER_INTS * Int32Array.BYTES_PER_ELEMENT

export class PeerLost extends Data.TaggedError("PeerLost")<{ readonly message: string }> {}

/** The shared memory for an exchange of `floats` values per step. */
export const makeExchangeMemory = (floats: number): SharedArrayBuffer =>
  new SharedArrayBuffer(HEADER_BYTES + 2 * 2 * floats * Float32Array.BYTES_PER_ELEMENT)

export interface GradientExchange {
  /**
   * Averages `values` with the other party's values of this round, weights[0] · party 0's + weights[1] · party 1's
   * (the exchange's weights unless this round's are given; both parties must give the same), in place. Throws
   * PeerLost when the other party failed or did not arrive in time.
   */
  readonly average: (values: Float32Array, weights?: readonly [number, number]) => void
  /** Tells the other party this one has failed, so it stops waiting at once. */
  readonly fail: () => void
}

export interface ExchangeSide {
  readonly memory: SharedArrayBuffer
  readonly floats: number
  readonly party: 0 | 1
  /** Each party's share of the batch (rows / batch rows): its gradients are means over its own rows. */
  readonly weights: readonly [number, number]
  readonly patienceMs?: number
}

export const gradientExchange = ({ floats, memory, party, patienceMs = 120_000, weights }: ExchangeSide): GradientExchange => {
  const header = new Int32Array(memory, 0, HEADER_INTS)
  const slot = (round: number, owner: number) =>
    new Float32Array(memory, HEADER_BYTES + ((round % 2) * 2 + owner) * floats * Float32Array.BYTES_PER_ELEMENT, floats)
  let round = 0

  const awaitArrivals = (count: number) => {
    const deadline = Date.now() + patienceMs
    for (;;) {
      // Arrivals first: a round both parties reached is complete even if the other has failed since.
      const arrived = Atomics.load(header, ARRIVED)
      if (arrived >= count) return
      if (Atomics.load(header, FAILED) !== 0) throw new PeerLost({ message: "the other training thread failed" })
      const left = deadline - Date.now()
      if (left <= 0) throw new PeerLost({ message: `the other training thread did not answer within ${patienceMs} ms` })
      Atomics.wait(header, ARRIVED, arrived, Math.min(left, 1_000))
    }
  }

  const average = (values: Float32Array, [first, second]: readonly [number, number] = weights) => {
    if (values.length > floats) throw new RangeError(`gradientExchange: ${values.length} values for room of ${floats}`)
    const mine = slot(round, party)
    mine.set(values)
    Atomics.add(header, ARRIVED, 1)
    Atomics.notify(header, ARRIVED)
    awaitArrivals(2 * (round + 1))
    const zero = slot(round, 0)
    const one = slot(round, 1)
    for (let i = 0; i < values.length; i++) values[i] = first * zero[i]! + second * one[i]!
    round += 1
  }

  const fail = () => {
    Atomics.store(header, FAILED, 1)
    Atomics.notify(header, ARRIVED)
  }

  return { average, fail }
}
