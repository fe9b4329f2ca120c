import { midranks } from "./midranks.ts"

/**
 * The area under the ROC curve of `positive` scores against `negative` ones by the Mann–Whitney statistic: the share
 * of (positive, negative) pairs where the positive scores higher, ties counting ½ (sklearn's roc_auc_score). Ranks
 * over the pooled scores, tied runs sharing their mean rank.
 */
export const rocAuc = (positive: Float64Array, negative: Float64Array): number => {
  const n1 = positive.length, n0 = negative.length
  if (n1 === 0 || n0 === 0) return NaN
  const scores = new Float64Array(n1 + n0)
  scores.set(positive)
  scores.set(negative, n1)
  const ranks = midranks(scores)
  let positiveRankSum = 0
  for (let i = 0; i < n1; i++) positiveRankSum += ranks[i]!
  return (positiveRankSum - (n1 * (n1 + 1)) / 2) / (n1 * n0)
}
