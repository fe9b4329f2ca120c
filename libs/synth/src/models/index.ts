export { describeDuration, encodedWidth, estimateSeconds, type SpeedModelInput, type WidthColumn } from "./speedModel.ts"
export {
  type CategoryCondition,
  type GeneratorKind,
  GeneratorUnavailable,
  NothingToLearn,
  type TrainingPrivacy,
  loadModel,
  ModelArtifactError,
  type TrainedModel,
  trainModel,
  type TrainingOptions,
  TrainingRefused
} from "./trainModel.ts"
export { trainableGenerators } from "./trainable.ts"
