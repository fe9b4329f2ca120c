export { describeDuration, encodedWidth, estimateSeconds, type SpeedModelInput, type WidthColumn } from "./speedModel.ts"
export {
  type GeneratorKind,
  GeneratorUnavailable,
  NothingToLearn,
  loadModel,
  ModelArtifactError,
  trainableGenerators,
  type TrainedModel,
  trainModel,
  type TrainingOptions
} from "./trainModel.ts"
