export { CopulaArtifact, CopulaArtifactError } from "./artifact.ts"
export {
  CopulaFitError,
  DEFAULT_MAX_FIT_ROWS,
  type FittedCopula,
  fitGaussianCopula,
  gaussianCopulaFromJSON,
  type GaussianCopulaOptions
} from "./fitGaussianCopula.ts"
export type { MarginalFamily } from "./marginals/Marginal.ts"
