/** A fitted univariate distribution of one continuous column (copulas' Univariate, one family at a time). */
export type MarginalFamily = "normal" | "truncated_normal" | "beta" | "gamma" | "uniform" | "gaussian_kde" | "constant"

export interface Marginal {
  readonly family: MarginalFamily
  /** The family's parameters in scipy's parameterisation (loc, scale, a, b, …): enough to rebuild it. */
  readonly params: Readonly<Record<string, number>>
  readonly cdf: (x: number) => number
  readonly ppf: (u: number) => number
}

/** What an artifact stores for a marginal; a KDE also keeps its quantiles, since its data are not stored. */
export interface MarginalJson {
  readonly family: MarginalFamily
  readonly params: Readonly<Record<string, number>>
  readonly quantiles?: ReadonlyArray<number> | undefined
}
