/**
 * A TVAE epoch: a fresh shuffle of the rows, then full batches of `batchSize` in that order; the rows past the last
 * full batch wait for the next epoch's shuffle (a table shorter than one batch is one batch). SDV's DataLoader keeps a
 * short last batch (drop_last = False), and an Adam step on its handful of rows costs far more than the rows are worth:
 * on credit_data (30 epochs, batch 500) 4,000 rows scored 0.811 and 0.795 (two seeds), 4,001 rows 0.635 and 0.677, 4,009
 * rows 0.681 and 0.705. On two threads each batch is shared: the leader takes its first ⌈n/2⌉ rows, the peer the rest
 * (none when n = 1), and each update averages the two gradients by those shares.
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
/** The updates of an epoch: the full batches, or one when the table is shorter than a batch. */
export const batchesPerEpoch = (rows: number, batchSize: number): number => Math.max(1, Math.floor(rows / batchSize))

export function* epochShares(order: Int32Array, batchSize: number, party: 0 | 1 | "alone"): Generator<BatchShare> {
  const rows = order.length < batchSize ? order.length : order.length - (order.length % batchSize)
  for (let start = 0; start < rows; start += batchSize) {
    yield batchShare(order, start, Math.min(batchSize, rows - start), party)
  }
}
