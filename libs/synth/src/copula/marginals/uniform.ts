import type { Marginal } from "./Marginal.ts"

export const uniformMarginal = (loc: number, scale: number): Marginal => ({
  family: "uniform",
  params: { loc, scale },
  cdf: (x) => Math.min(1, Math.max(0, (x - loc) / scale)),
  ppf: (u) => loc + scale * u
})

/** copulas' UniformUnivariate: loc = min, scale = max − min. */
export const fitUniform = (sorted: Float64Array): Marginal =>
  uniformMarginal(sorted[0]!, sorted[sorted.length - 1]! - sorted[0]!)
