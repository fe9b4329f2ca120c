import { meanAndSquaredDeviations } from "@synth/stats"
import { normalCdf, normalPpf, normalSurvival } from "../special/normal.ts"
import type { Marginal } from "./Marginal.ts"
import { nelderMead } from "./nelderMead.ts"

/** np.finfo(np.float32).eps: copulas widens the data's bounds by it. */
export const FLOAT32_EPSILON = 1.1920928955078125e-7

/** Φ(b) − Φ(a) and Φ(a), computed on the side of 0 where they keep their precision. */
const massBetween = (alpha: number, beta: number) =>
  alpha > 0 ? normalSurvival(alpha) - normalSurvival(beta) : normalCdf(beta) - normalCdf(alpha)

/** scipy's truncnorm(a, b, loc, scale): a and b are the bounds in standard units. */
export const truncatedNormalMarginal = (a: number, b: number, loc: number, scale: number): Marginal => {
  const mass = massBetween(a, b)
  const upperTail = a > 0
  const lowerSurvival = normalSurvival(a)
  const lowerCdf = normalCdf(a)
  return {
    family: "truncated_normal",
    params: { a, b, loc, scale },
    cdf: (x) => {
      const standard = (x - loc) / scale
      if (standard <= a) return 0
      if (standard >= b) return 1
      return Math.min(1, massBetween(a, standard) / mass)
    },
    ppf: (u) => {
      const standard = upperTail ? -normalPpf(lowerSurvival - u * mass) : normalPpf(lowerCdf + u * mass)
      return loc + scale * Math.min(b, Math.max(a, standard))
    }
  }
}

/**
 * copulas' TruncatedGaussian: bounds fixed at the data's min and max widened by float32's epsilon, loc and scale
 * by maximum likelihood within loc ∈ [low, high], scale ∈ (0, (high − low)²] from (mean, std). The likelihood
 * only needs Σx and Σx², so a simplex search replaces scipy's SLSQP at no cost per step.
 */
export const fitTruncatedNormal = (sorted: Float64Array): Marginal => {
  const n = sorted.length
  const low = sorted[0]! - FLOAT32_EPSILON
  const high = sorted[n - 1]! + FLOAT32_EPSILON
  const { mean, squares: centred } = meanAndSquaredDeviations(sorted)
  const std = Math.sqrt(centred / n)
  const maxScale = (high - low) ** 2
  // Σ(x − loc)² = centred + n·(mean − loc)², exact whatever loc is.
  const negativeLogLikelihood = ([loc, logScale]: ReadonlyArray<number>) => {
    const scale = Math.exp(logScale!)
    if (loc! < low || loc! > high || scale > maxScale) return Infinity
    const mass = massBetween((low - loc!) / scale, (high - loc!) / scale)
    if (!(mass > 0)) return Infinity
    const squares = centred + n * (mean - loc!) ** 2
    return n * Math.log(scale) + squares / (2 * scale * scale) + n * 0.5 * Math.log(2 * Math.PI) + n * Math.log(mass)
  }
  const startScale = Math.min(std, maxScale)
  const [loc, logScale] = nelderMead(negativeLogLikelihood, [mean, Math.log(startScale)], [0.1 * std, 0.1], 1000, 1e-13)
  const scale = Math.exp(logScale!)
  return truncatedNormalMarginal((low - loc!) / scale, (high - loc!) / scale, loc!, scale)
}
