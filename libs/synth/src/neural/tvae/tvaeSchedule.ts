/**
 * A TVAE epoch as SDV runs it: a fresh shuffle of the rows, then batches of `batchSize` in that order, the last one
 * short (its DataLoader keeps it: drop_last = False). On two threads each batch is shared: the leader takes its
 * first ⌈n/2⌉ rows, the peer the rest (none when n = 1), and each update averages the two gradients by those shares.
 */
export interface BatchShare {
  /** The rows of the batch this thread learns from (may be empty for the peer). */
  readonly rows: Int32Array
  /** The two threads' shares of the batch: [leader's rows / n, peer's rows / n]. */
  readonly weights: readonly [number, number]
}

export const batchShare = (order: Int32Array, start: number, count: number, party: 0 | 1 | "alone"): BatchShare => {
  if (party === "alone") return { rows: order.subarray(start, start + count), weights: [1, 0] }
  const leaderCount = Math.ceil(count / 2)
  const weights = [leaderCount / count, (count - leaderCount) / count] as const
  return party === 0
    ? { rows: order.subarray(start, start + leaderCount), weights }
    : { rows: order.subarray(start + leaderCount, start + count), weights }
}

/** The batches of one epoch in `order` (already shuffled), each as `party`'s share. */
export function* epochShares(order: Int32Array, batchSize: number, party: 0 | 1 | "alone"): Generator<BatchShare> {
  for (let start = 0; start < order.length; start += batchSize) {
    yield batchShare(order, start, Math.min(batchSize, order.length - start), party)
  }
}
