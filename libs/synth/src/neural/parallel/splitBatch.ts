/**
 * How a batch of `batchSize` rows, in groups of `group` rows that must stay together (CTGAN's PacGAN packs; 1 for
 * TVAE), is shared between the two threads of a data-parallel training: the leader takes the larger half of the
 * groups. Each side's gradients are means over its own rows, so the batch's mean gradient is the average weighted by
 * rows. Null when there is only one group (nothing to share).
 */
export interface BatchSplit {
  readonly leaderRows: number
  readonly peerRows: number
  readonly weights: readonly [number, number]
}

export const splitBatch = (batchSize: number, group: number): BatchSplit | null => {
  const groups = Math.floor(batchSize / group)
  if (groups < 2) return null
  const leaderRows = Math.ceil(groups / 2) * group
  const peerRows = batchSize - leaderRows
  return { leaderRows, peerRows, weights: [leaderRows / batchSize, peerRows / batchSize] }
}
