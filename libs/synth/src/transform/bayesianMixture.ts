import { digamma, logGamma } from "../copula/special/gamma.ts"

/**
 * A one-dimensional variational Bayesian Gaussian mixture with a Dirichlet-process weight prior: scikit-learn's
 * BayesianGaussianMixture as CTGAN's mode-specific normalisation configures it (rdt's ClusterBasedNormalizer:
 * 10 components, weight concentration 0.001, 100 iterations, tolerance 1e-3 on the lower bound, reg_covar 1e-6,
 * priors from the data: mean prior = the mean, covariance prior = the sample variance, one degree of freedom, mean
 * precision 1). The same variational EM arithmetic, step for step, so that from the same starting assignment it
 * finds the same mixture (checked against scikit-learn in bayesianMixture.unit.spec.ts). No maintained JavaScript
 * package implements the variational mixture, and in one dimension it is a few dozen lines.
 */
export interface MixtureOptions {
  readonly components: number
  readonly concentration?: number
  readonly maxIterations?: number
  readonly tolerance?: number
}

export interface FittedMixture {
  /** Expected mixture weights (normalised stick-breaking means), as scikit-learn's `weights_`. */
  readonly weights: Float64Array
  readonly means: Float64Array
  /** Square roots of scikit-learn's `covariances_`. */
  readonly stds: Float64Array
  readonly iterations: number
  readonly converged: boolean
  readonly lowerBound: number
  /** What `componentProbabilities` needs to place new values. */
  readonly stored: StoredMixture
}

/** The variational posterior: everything the E-step needs. */
interface Posterior {
  readonly concentrationA: Float64Array
  readonly concentrationB: Float64Array
  readonly meanPrecision: Float64Array
  readonly means: Float64Array
  readonly degreesOfFreedom: Float64Array
  readonly covariances: Float64Array
}

interface Priors {
  readonly concentration: number
  readonly mean: number
  readonly covariance: number
}

const EPSILON = 2.220446049250313e-16
const REG_COVAR = 1e-6
const LOG_2PI = Math.log(2 * Math.PI)

/**
 * Fits the mixture to `values` (at least two), starting from the hard assignment `initialLabels` (a component per
 * value; k-means' clusters in practice).
 */
export const fitBayesianMixture = (values: Float64Array, initialLabels: Int32Array, options: MixtureOptions): FittedMixture => {
  const components = options.components
  const priors: Priors = {
    concentration: options.concentration ?? 0.001,
    mean: mean(values),
    covariance: sampleVariance(values)
  }
  const responsibilities = new Float64Array(values.length * components)
  initialLabels.forEach((label, i) => {
    responsibilities[i * components + label] = 1
  })
  let posterior = maximise(values, responsibilities, components, priors)
  let lowerBound = -Infinity
  let converged = false
  let iterations = 0
  const maxIterations = options.maxIterations ?? 100
  const tolerance = options.tolerance ?? 1e-3
  while (iterations < maxIterations) {
    iterations++
    const previous = lowerBound
    const entropy = expectResponsibilities(values, posterior, responsibilities)
    posterior = maximise(values, responsibilities, components, priors)
    lowerBound = boundOf(posterior, entropy)
    if (Math.abs(lowerBound - previous) < tolerance) {
      converged = true
      break
    }
  }
  return {
    weights: expectedWeights(posterior),
    means: posterior.means,
    stds: posterior.covariances.map(Math.sqrt),
    iterations,
    converged,
    lowerBound,
    stored: storedMixtureOf(posterior)
  }
}

/**
 * Each value's posterior probability of each component (rows of `components`), as scikit-learn's `predict_proba`:
 * the mixture's expected log weights plus the expected Gaussian log densities, normalised per value.
 */
export const componentProbabilities = (mixture: StoredMixture, value: number, into: Float64Array): void => {
  let max = -Infinity
  for (let k = 0; k < into.length; k++) {
    const logDensity = mixture.logWeights[k]! + mixture.logScale[k]! - 0.5 * ((value - mixture.means[k]!) * mixture.precision[k]!) ** 2
    into[k] = logDensity
    if (logDensity > max) max = logDensity
  }
  let sum = 0
  for (let k = 0; k < into.length; k++) {
    into[k] = Math.exp(into[k]! - max)
    sum += into[k]!
  }
  for (let k = 0; k < into.length; k++) into[k]! /= sum
}

/**
 * What `componentProbabilities` needs, precomputed from a posterior: per component the expected log weight, the
 * constant part of the expected log density, the mean and the square root of the precision.
 */
export interface StoredMixture {
  readonly logWeights: Float64Array
  readonly logScale: Float64Array
  readonly means: Float64Array
  readonly precision: Float64Array
}

/** The posterior's E-step terms, for `componentProbabilities` on new values. */
const storedMixtureOf = (posterior: Posterior): StoredMixture => {
  const components = posterior.means.length
  const logWeights = expectedLogWeights(posterior)
  const logScale = new Float64Array(components)
  const precision = new Float64Array(components)
  for (let k = 0; k < components; k++) {
    const dof = posterior.degreesOfFreedom[k]!
    precision[k] = 1 / Math.sqrt(posterior.covariances[k]!)
    logScale[k] = -0.5 * LOG_2PI + Math.log(precision[k]!) - 0.5 * Math.log(dof) +
      0.5 * (Math.LN2 + digamma(0.5 * dof) - 1 / posterior.meanPrecision[k]!)
  }
  return { logWeights, logScale, means: posterior.means, precision }
}

/**
 * The E-step: replaces `responsibilities` (rows of components) by each value's posterior component probabilities
 * under `posterior`, and returns their entropy −Σ r log r (the lower bound's responsibility term), computed from the
 * log probabilities in the same pass.
 */
const expectResponsibilities = (values: Float64Array, posterior: Posterior, responsibilities: Float64Array): number => {
  const { logScale, logWeights, means, precision } = storedMixtureOf(posterior)
  const components = means.length
  const logDensities = new Float64Array(components)
  let entropy = 0
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!
    let max = -Infinity
    for (let k = 0; k < components; k++) {
      const logDensity = logWeights[k]! + logScale[k]! - 0.5 * ((value - means[k]!) * precision[k]!) ** 2
      logDensities[k] = logDensity
      if (logDensity > max) max = logDensity
    }
    let sum = 0
    for (let k = 0; k < components; k++) sum += Math.exp(logDensities[k]! - max)
    const logNormaliser = max + Math.log(sum)
    const base = i * components
    for (let k = 0; k < components; k++) {
      const logResponsibility = logDensities[k]! - logNormaliser
      const responsibility = Math.exp(logResponsibility)
      responsibilities[base + k] = responsibility
      if (responsibility > 0) entropy -= responsibility * logResponsibility
    }
  }
  return entropy
}

/** The M-step: the variational posterior given responsibilities (scikit-learn's _estimate_* functions). */
const maximise = (values: Float64Array, responsibilities: Float64Array, components: number, priors: Priors): Posterior => {
  const counts = new Float64Array(components).fill(10 * EPSILON)
  const centres = new Float64Array(components)
  for (let i = 0; i < values.length; i++) {
    for (let k = 0; k < components; k++) {
      const r = responsibilities[i * components + k]!
      counts[k]! += r
      centres[k]! += r * values[i]!
    }
  }
  for (let k = 0; k < components; k++) centres[k]! /= counts[k]!
  const spreads = new Float64Array(components)
  for (let i = 0; i < values.length; i++) {
    for (let k = 0; k < components; k++) spreads[k]! += responsibilities[i * components + k]! * (values[i]! - centres[k]!) ** 2
  }
  const concentrationA = counts.map((count) => 1 + count)
  const concentrationB = new Float64Array(components)
  let later = 0
  for (let k = components - 1; k >= 0; k--) {
    concentrationB[k] = priors.concentration + later
    later += counts[k]!
  }
  const meanPrecision = counts.map((count) => 1 + count)
  const means = counts.map((count, k) => (priors.mean + count * centres[k]!) / meanPrecision[k]!)
  const degreesOfFreedom = counts.map((count) => 1 + count)
  const covariances = counts.map((count, k) => {
    const spread = spreads[k]! / count + REG_COVAR
    const offset = centres[k]! - priors.mean
    return (priors.covariance + count * spread + (count / meanPrecision[k]!) * offset * offset) / degreesOfFreedom[k]!
  })
  return { concentrationA, concentrationB, meanPrecision, means, degreesOfFreedom, covariances }
}

/** E[log π_k] under the stick-breaking posterior. */
const expectedLogWeights = ({ concentrationA, concentrationB }: Posterior): Float64Array => {
  const result = new Float64Array(concentrationA.length)
  let brokenOff = 0
  for (let k = 0; k < result.length; k++) {
    const total = digamma(concentrationA[k]! + concentrationB[k]!)
    result[k] = digamma(concentrationA[k]!) - total + brokenOff
    brokenOff += digamma(concentrationB[k]!) - total
  }
  return result
}

/** The evidence lower bound up to a constant (scikit-learn's _compute_lower_bound for a Dirichlet process, 1-D). */
const boundOf = (posterior: Posterior, entropy: number): number => {
  let logWishart = 0
  let logNormWeight = 0
  let logMeanPrecision = 0
  for (let k = 0; k < posterior.means.length; k++) {
    const dof = posterior.degreesOfFreedom[k]!
    const logDetPrecisionCholesky = -0.5 * Math.log(posterior.covariances[k]!) - 0.5 * Math.log(dof)
    logWishart -= dof * logDetPrecisionCholesky + dof * 0.5 * Math.LN2 + logGamma(0.5 * dof)
    const a = posterior.concentrationA[k]!
    const b = posterior.concentrationB[k]!
    logNormWeight -= logGamma(a) + logGamma(b) - logGamma(a + b)
    logMeanPrecision += Math.log(posterior.meanPrecision[k]!)
  }
  return entropy - logWishart - logNormWeight - 0.5 * logMeanPrecision
}

/** The normalised expected stick-breaking weights (scikit-learn's `weights_`). */
const expectedWeights = ({ concentrationA, concentrationB }: Posterior): Float64Array => {
  const weights = new Float64Array(concentrationA.length)
  let remaining = 1
  let total = 0
  for (let k = 0; k < weights.length; k++) {
    const sum = concentrationA[k]! + concentrationB[k]!
    weights[k] = (concentrationA[k]! / sum) * remaining
    remaining *= concentrationB[k]! / sum
    total += weights[k]!
  }
  return weights.map((weight) => weight / total)
}

const mean = (values: Float64Array): number => values.reduce((sum, value) => sum + value, 0) / values.length

const sampleVariance = (values: Float64Array): number => {
  const centre = mean(values)
  return values.reduce((sum, value) => sum + (value - centre) ** 2, 0) / (values.length - 1)
}
