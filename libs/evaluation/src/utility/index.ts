export { type Algorithm, algorithms as mlUtilityAlgorithms } from "./models.ts"
export {
  type AlgorithmUtility,
  defaultMlUtilityConfig,
  type MeanStd,
  mlUtility,
  type MlUtilityConfig,
  type MlUtilityResult,
  type TrainingComparison
} from "./mlUtility.ts"
export type { MetricName, Scores } from "./scores.ts"
export { inferTargetColumn } from "./target.ts"
