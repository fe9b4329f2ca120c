import { betaMarginal } from "./beta.ts"
import { constantMarginal } from "./constant.ts"
import { gammaMarginal } from "./gamma.ts"
import type { Marginal, MarginalJson } from "./Marginal.ts"
import { normalMarginal } from "./normal.ts"
import { quantileAt, scoreAt } from "./quantileTable.ts"
import { normalCdf, normalPpf } from "../special/normal.ts"
import { truncatedNormalMarginal } from "./truncatedNormal.ts"
import { uniformMarginal } from "./uniform.ts"

const param = (json: MarginalJson, name: string): number => {
  const value = json.params[name]
  if (typeof value !== "number") throw new Error(`copula artifact: ${json.family} marginal lacks parameter ${name}`)
  return value
}

/** A KDE restored from its stored quantiles: its data are not kept, so cdf and ppf go through that table. */
const tabulatedKde = (json: MarginalJson): Marginal => {
  if (json.quantiles === undefined) throw new Error("copula artifact: a gaussian_kde marginal needs its quantiles")
  const table = Float64Array.from(json.quantiles)
  return {
    family: "gaussian_kde",
    params: json.params,
    cdf: (x) => normalCdf(scoreAt(table, x)),
    ppf: (u) => quantileAt(table, normalPpf(u))
  }
}

export const marginalFromJson = (json: MarginalJson): Marginal => {
  switch (json.family) {
    case "normal":
      return normalMarginal(param(json, "loc"), param(json, "scale"))
    case "truncated_normal":
      return truncatedNormalMarginal(param(json, "a"), param(json, "b"), param(json, "loc"), param(json, "scale"))
    case "beta":
      return betaMarginal(param(json, "a"), param(json, "b"), param(json, "loc"), param(json, "scale"))
    case "gamma":
      return gammaMarginal(param(json, "a"), param(json, "loc"), param(json, "scale"))
    case "uniform":
      return uniformMarginal(param(json, "loc"), param(json, "scale"))
    case "constant":
      return constantMarginal(param(json, "loc"))
    case "gaussian_kde":
      return tabulatedKde(json)
  }
}
