import { accuracy, f1, meanAbsoluteError, r2, rocAuc } from "./metrics.ts"
import type { Task } from "./target.ts"

export const classificationMetrics = ["accuracy", "f1", "roc_auc"] as const
export const regressionMetrics = ["r2", "mae"] as const
export type MetricName = (typeof classificationMetrics)[number] | (typeof regressionMetrics)[number]

/** One model's scores on one test set; null where a metric is undefined there (ROC AUC with one class present). */
export type Scores = Readonly<Partial<Record<MetricName, number | null>>>

export const metricsOf = (task: Task): ReadonlyArray<MetricName> => (task.kind === "classification" ? classificationMetrics : regressionMetrics)

/** MAE is the one metric where lower is better. */
export const higherIsBetter = (metric: MetricName) => metric !== "mae"

const finiteOrNull = (value: number) => (Number.isFinite(value) ? value : null)

/** Scores of `predictions` (probabilities row-major, or values) against the truth. */
export const scorePredictions = (task: Task, truth: Int32Array | Float64Array, predictions: Float64Array): Scores => {
  if (task.kind === "regression") {
    const values = Float64Array.from(truth)
    return { r2: finiteOrNull(r2(values, predictions)), mae: finiteOrNull(meanAbsoluteError(values, predictions)) }
  }
  const classCount = task.classes.length
  const labels = Int32Array.from(truth)
  // The most probable class, the first on ties (numpy's argmax, as sklearn's predict).
  const predicted = Int32Array.from({ length: labels.length }, (_, row) => {
    let best = 0
    for (let k = 1; k < classCount; k++) if (predictions[row * classCount + k]! > predictions[row * classCount + best]!) best = k
    return best
  })
  return {
    accuracy: accuracy(labels, predicted),
    f1: f1(labels, predicted, classCount),
    roc_auc: finiteOrNull(rocAuc(labels, predictions, classCount))
  }
}
