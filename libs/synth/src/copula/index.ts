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
/** The regularised upper incomplete gamma function, also the χ² survival function's core (the evaluation's tests). */
export { gammaQ } from "./special/gamma.ts"
