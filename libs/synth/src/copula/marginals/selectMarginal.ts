import { fitBeta } from "./beta.ts"
import { constantMarginal } from "./constant.ts"
import { fitGamma } from "./gamma.ts"
import { fitKde } from "./kde.ts"
import { ksStatistic } from "./ksStatistic.ts"
import type { Marginal, MarginalFamily } from "./Marginal.ts"
import { fitNormal } from "./normal.ts"
import { fitTruncatedNormal } from "./truncatedNormal.ts"
import { fitUniform } from "./uniform.ts"

export const candidateFits: ReadonlyArray<readonly [MarginalFamily, (sorted: Float64Array) => Marginal]> = [
  ["normal", fitNormal],
  ["truncated_normal", fitTruncatedNormal],
  ["beta", fitBeta],
  ["gamma", fitGamma],
  ["uniform", fitUniform],
  ["gaussian_kde", fitKde]
]

export interface Selection {
  readonly marginal: Marginal
  /** The KS statistic of every candidate that could be fitted (NaN for one that could not). */
  readonly statistics: Readonly<Partial<Record<MarginalFamily, number>>>
}

/**
 * copulas' select_univariate: fit every candidate and keep the one with the smallest one-sample KS statistic
 * against the data (the first on ties). A candidate whose fit fails or gives a non-finite statistic is skipped,
 * as copulas skips one that raises. A column with one distinct value is a constant (copulas' `_fit_constant`).
 */
export const selectMarginal = (
  sorted: Float64Array,
  candidates: ReadonlyArray<MarginalFamily> = candidateFits.map(([family]) => family)
): Selection => {
  if (sorted[0] === sorted[sorted.length - 1]) return { marginal: constantMarginal(sorted[0]!), statistics: {} }
  let best: Marginal | null = null
  let bestStatistic = Infinity
  const statistics: Partial<Record<MarginalFamily, number>> = {}
  for (const [family, fit] of candidateFits) {
    if (!candidates.includes(family)) continue
    let statistic = NaN
    let marginal: Marginal | null = null
    try {
      marginal = fit(sorted)
      statistic = ksStatistic(sorted, marginal.cdf)
    } catch {
      statistic = NaN
    }
    statistics[family] = statistic
    if (marginal !== null && statistic < bestStatistic) {
      best = marginal
      bestStatistic = statistic
    }
  }
  return { marginal: best ?? fitNormal(sorted), statistics }
}
