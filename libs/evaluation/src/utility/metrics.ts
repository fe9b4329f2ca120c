// Scores as scikit-learn's sklearn.metrics computes them (1.9): the unit tests hold them to 1e-9 of a fixture it wrote.

/** Share of rows whose predicted class is the true one (`accuracy_score`). */
export const accuracy = (truth: Int32Array, predicted: Int32Array): number => {
  let hits = 0
  for (let i = 0; i < truth.length; i++) if (truth[i] === predicted[i]) hits++
  return hits / truth.length
}

const f1Of = (truth: Int32Array, predicted: Int32Array, label: number): number => {
  let truePositive = 0, falsePositive = 0, falseNegative = 0
  for (let i = 0; i < truth.length; i++) {
    const isTrue = truth[i] === label, isPredicted = predicted[i] === label
    if (isTrue && isPredicted) truePositive++
    else if (isPredicted) falsePositive++
    else if (isTrue) falseNegative++
  }
  // sklearn's zero_division default: 0 when the class is never predicted nor present.
  const denominator = 2 * truePositive + falsePositive + falseNegative
  return denominator === 0 ? 0 : (2 * truePositive) / denominator
}

/**
 * F1 of class 1 for two classes (`f1_score(average="binary", pos_label=1)`), otherwise the unweighted mean over the
 * classes that occur in the truth or the predictions (`average="macro"`).
 */
export const f1 = (truth: Int32Array, predicted: Int32Array, classCount: number): number => {
  if (classCount === 2) return f1Of(truth, predicted, 1)
  const labels = [...new Set([...truth, ...predicted])].sort((a, b) => a - b)
  return labels.reduce((sum, label) => sum + f1Of(truth, predicted, label), 0) / labels.length
}

/**
 * Area under the ROC curve for "is `positive`" scored by `scores` (Mann–Whitney U with mid-ranks for ties, which
 * equals sklearn's trapezoidal area); NaN when the truth holds only one side.
 */
export const binaryRocAuc = (isPositive: (row: number) => boolean, scores: Float64Array): number => {
  const order = Int32Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!)
  let positives = 0, positiveRankSum = 0
  for (let start = 0; start < order.length; ) {
    let end = start
    while (end + 1 < order.length && scores[order[end + 1]!] === scores[order[start]!]) end++
    const midRank = (start + end) / 2 + 1
    for (let k = start; k <= end; k++) {
      if (isPositive(order[k]!)) {
        positives++
        positiveRankSum += midRank
      }
    }
    start = end + 1
  }
  const negatives = scores.length - positives
  if (positives === 0 || negatives === 0) return NaN
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives)
}

/**
 * ROC AUC from class probabilities (`probabilities[row * classCount + class]`): class 1's probability for two classes
 * (`roc_auc_score(y, p[:, 1])`), else one-vs-rest macro over the classes present in the truth
 * (`roc_auc_score(y, p, multi_class="ovr", average="macro")`, which requires every class present). NaN when fewer
 * than two classes are present.
 */
export const rocAuc = (truth: Int32Array, probabilities: Float64Array, classCount: number): number => {
  const scoresOf = (label: number) => Float64Array.from({ length: truth.length }, (_, row) => probabilities[row * classCount + label]!)
  if (classCount === 2) return binaryRocAuc((row) => truth[row] === 1, scoresOf(1))
  const present = [...new Set(truth)].sort((a, b) => a - b)
  if (present.length < 2) return NaN
  return present.reduce((sum, label) => sum + binaryRocAuc((row) => truth[row] === label, scoresOf(label)), 0) / present.length
}

/** Coefficient of determination (`r2_score`; 1 for a perfect fit of a constant truth, else 0 there). */
export const r2 = (truth: Float64Array, predicted: Float64Array): number => {
  let mean = 0
  for (const value of truth) mean += value
  mean /= truth.length
  let residual = 0, total = 0
  for (let i = 0; i < truth.length; i++) {
    residual += (truth[i]! - predicted[i]!) ** 2
    total += (truth[i]! - mean) ** 2
  }
  if (total === 0) return residual === 0 ? 1 : 0
  return 1 - residual / total
}

/** Mean absolute error (`mean_absolute_error`). */
export const meanAbsoluteError = (truth: Float64Array, predicted: Float64Array): number => {
  let sum = 0
  for (let i = 0; i < truth.length; i++) sum += Math.abs(truth[i]! - predicted[i]!)
  return sum / truth.length
}
