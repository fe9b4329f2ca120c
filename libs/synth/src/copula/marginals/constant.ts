import type { Marginal } from "./Marginal.ts"

/** A column with one distinct value (copulas' `_fit_constant`): every quantile is that value. */
export const constantMarginal = (value: number): Marginal => ({
  family: "constant",
  params: { loc: value },
  cdf: (x) => (x < value ? 0 : 1),
  ppf: () => value
})
