export { describeDuration, encodedWidth, estimateSeconds, type SpeedModelInput, type WidthColumn } from "./speedModel.ts"
export {
  type CategoryCondition,
  type GeneratorKind,
  GeneratorUnavailable,
  NothingToLearn,
  type TrainingPrivacy,
  loadModel,
  ModelArtifactError,
  trainableGenerators,
  type TrainedModel,
  trainModel,
  type TrainingOptions,
  TrainingRefused
} from "./trainModel.ts"
