/**
 * The area under the ROC curve of `positive` scores against `negative` ones by the Mann–Whitney statistic: the share
 * of (positive, negative) pairs where the positive scores higher, ties counting ½ (sklearn's roc_auc_score). Ranks
 * over the pooled sorted scores, tied runs sharing their mean rank.
 */
export const rocAuc = (positive: Float64Array, negative: Float64Array): number => {
  const n1 = positive.length, n0 = negative.length
  if (n1 === 0 || n0 === 0) return NaN
  const scores = new Float64Array(n1 + n0)
  scores.set(positive)
  scores.set(negative, n1)
  const order = Int32Array.from({ length: n1 + n0 }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!)
  let positiveRankSum = 0
  for (let start = 0; start < order.length; ) {
    let end = start + 1
    while (end < order.length && scores[order[end]!] === scores[order[start]!]) end++
    // Ranks start + 1 … end share their mean.
    const meanRank = (start + 1 + end) / 2
    for (let k = start; k < end; k++) if (order[k]! < n1) positiveRankSum += meanRank
    start = end
  }
  return (positiveRankSum - (n1 * (n1 + 1)) / 2) / (n1 * n0)
}
