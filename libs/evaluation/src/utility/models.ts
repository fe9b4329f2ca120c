import type { Random } from "@synth/synth"
import type { FeatureMatrix } from "./features.ts"
import { fitGradientBoosting, xgboostDefaults } from "./gradientBoosting.ts"
import { fitRandomForest, forestDefaults } from "./randomForest.ts"
import type { Task } from "./target.ts"

export const algorithms = ["random_forest", "xgboost"] as const
export type Algorithm = (typeof algorithms)[number]

/** Row-major class probabilities (rowCount × classes) for classification, one value per row for regression. */
export type Predict = (matrix: FeatureMatrix) => Float64Array

/** Trains `algorithm` with its library defaults (scikit-learn's forest, XGBoost's booster) on `matrix`. */
export const fitModel = (algorithm: Algorithm, task: Task, matrix: FeatureMatrix, target: Int32Array | Float64Array, random: Random): Predict => {
  const classCount = task.kind === "classification" ? task.classes.length : 0
  switch (algorithm) {
    case "random_forest":
      return fitRandomForest(matrix, target, task.kind === "classification" ? { kind: "classification", classCount } : { kind: "regression" }, random, forestDefaults).predict
    case "xgboost": {
      const objective = task.kind === "regression" ? ({ kind: "squaredError" } as const) : classCount === 2 ? ({ kind: "binary" } as const) : ({ kind: "multiclass", classCount } as const)
      return fitGradientBoosting(matrix, target, objective, xgboostDefaults).predict
    }
  }
}
