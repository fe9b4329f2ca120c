export { CtganArtifact, CtganArtifactError, ctganFromJSON } from "./artifact.ts"
export type { CtganModel, CtganPrivacy, EpochRecord } from "./CtganModel.ts"
export { fitCtgan } from "./fitCtgan.ts"
export {
  CTGAN_DEFAULTS,
  type CtganFitError,
  type CtganOptions,
  CtganOptionsError,
  type DpOptions,
  type EpochLosses,
  InvalidEpsilon,
  PrivacyBudgetExceeded
} from "./options.ts"
