export { Evaluation, evaluationActor } from "./Evaluation.ts"
export { EvaluationConfig } from "./EvaluationConfig.ts"
export { evaluationGroup, EvaluationLive } from "./EvaluationLive.ts"
