import { midranks } from "./midranks.ts"

export interface AucInterval {
  /** The AUC (Mann–Whitney, ties ½): equal to rocAuc. */
  readonly auc: number
  /** DeLong's standard error of the AUC. */
  readonly standardError: number
  /** The 95 % interval auc ± 1.96·standardError, cut to [0, 1]. */
  readonly low: number
  readonly high: number
}

const Z_95 = 1.959963984540054

const sampleVariance = (values: Float64Array, mean: number): number => {
  let sum = 0
  for (const value of values) sum += (value - mean) ** 2
  return sum / (values.length - 1)
}

/**
 * The AUC of `positive` scores against `negative` ones with DeLong's 95 % confidence interval (DeLong, DeLong &
 * Clarke-Pearson 1988), computed from midranks as Sun & Xu (2014) do: each positive's placement (the share of
 * negatives it beats, ties ½) is its rank among all scores minus its rank among the positives, over the negatives'
 * count, and likewise for each negative; the AUC's variance is var(placements of positives)/m + var(placements of
 * negatives)/n. DeLong rather than Hanley–McNeil because it assumes no score distribution and handles ties; rather
 * than a bootstrap because it is exact for the statistic, needs no random draws and is O(n log n). Null with fewer
 * than two scores on either side (no variance to estimate).
 */
export const aucInterval = (positive: Float64Array, negative: Float64Array): AucInterval | null => {
  const m = positive.length, n = negative.length
  if (m < 2 || n < 2) return null
  const pooled = new Float64Array(m + n)
  pooled.set(positive)
  pooled.set(negative, m)
  const pooledRanks = midranks(pooled)
  const positiveRanks = midranks(positive), negativeRanks = midranks(negative)
  const positivePlacements = positiveRanks.map((rank, i) => (pooledRanks[i]! - rank) / n)
  const negativePlacements = negativeRanks.map((rank, j) => 1 - (pooledRanks[m + j]! - rank) / m)
  const auc = positivePlacements.reduce((sum, value) => sum + value, 0) / m
  const variance = sampleVariance(positivePlacements, auc) / m + sampleVariance(negativePlacements, auc) / n
  const standardError = Math.sqrt(variance)
  return { auc, standardError, low: Math.max(0, auc - Z_95 * standardError), high: Math.min(1, auc + Z_95 * standardError) }
}
