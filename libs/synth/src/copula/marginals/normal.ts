import { meanAndSquaredDeviations } from "@synth/stats"
import { normalCdf, normalPpf } from "../special/normal.ts"
import type { Marginal } from "./Marginal.ts"

export const normalMarginal = (loc: number, scale: number): Marginal => ({
  family: "normal",
  params: { loc, scale },
  cdf: (x) => normalCdf((x - loc) / scale),
  ppf: (u) => loc + scale * normalPpf(u)
})

/** copulas' GaussianUnivariate: the mean and the population standard deviation (numpy's std, ddof 0). */
export const fitNormal = (sorted: Float64Array): Marginal => {
  const { mean, squares } = meanAndSquaredDeviations(sorted)
  return normalMarginal(mean, Math.sqrt(squares / sorted.length))
}
