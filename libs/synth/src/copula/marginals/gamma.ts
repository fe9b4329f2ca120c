import { digamma, gammaP, gammaPInverse, logGamma, trigamma } from "../special/gamma.ts"
import type { Marginal } from "./Marginal.ts"
import { thinSorted } from "./thinSorted.ts"

/** scipy's gamma(a, loc, scale). */
export const gammaMarginal = (a: number, loc: number, scale: number): Marginal => ({
  family: "gamma",
  params: { a, loc, scale },
  cdf: (x) => gammaP(a, (x - loc) / scale),
  ppf: (u) => loc + scale * gammaPInverse(u, a)
})

/** The shape a with log a − ψ(a) = s (the two-parameter likelihood equation), by Newton from Minka's start. */
const shapeFor = (s: number): number => {
  let a = (3 - s + Math.sqrt((s - 3) ** 2 + 24 * s)) / (12 * s)
  for (let iteration = 0; iteration < 50; iteration++) {
    const step = (Math.log(a) - digamma(a) - s) / (1 / a - trigamma(a))
    const next = a - step
    a = next > 0 ? next : a / 2
    if (Math.abs(step) < 1e-12 * a) break
  }
  return a
}

/**
 * copulas' GammaUnivariate fits all three parameters by maximum likelihood (scipy's gamma.fit). For a fixed loc the
 * shape and scale have the closed likelihood equations above, so the fit maximises the profile likelihood over loc
 * below the minimum: a coarse scan of log(min − loc) over [1e-4, 1e3]·range, then a golden-section refinement.
 * The lower end bounds the degenerate spike of the likelihood as loc reaches the minimum when a < 1. The search runs
 * on ≤ 20,000 order statistics (thinSorted.ts); shape and scale for the chosen loc on every value.
 */
export const fitGamma = (sorted: Float64Array): Marginal => {
  const min = sorted[0]!
  const range = sorted[sorted.length - 1]! - min
  const thinned = thinSorted(sorted)
  const profile = (logGap: number, values: Float64Array = thinned) => {
    const n = values.length
    const loc = min - Math.exp(logGap)
    let sum = 0, sumLog = 0
    for (let i = 0; i < n; i++) {
      const y = values[i]! - loc
      sum += y
      sumLog += Math.log(y)
    }
    const mean = sum / n, meanLog = sumLog / n
    const a = shapeFor(Math.log(mean) - meanLog)
    const scale = mean / a
    const logLikelihood = n * ((a - 1) * meanLog - a - a * Math.log(scale) - logGamma(a))
    return { loc, a, scale, logLikelihood }
  }
  const lowest = Math.log(range * 1e-4), highest = Math.log(range * 1e3)
  const steps = 32
  let bestStep = 0, bestValue = -Infinity
  for (let step = 0; step <= steps; step++) {
    const value = profile(lowest + ((highest - lowest) * step) / steps).logLikelihood
    if (value > bestValue) {
      bestValue = value
      bestStep = step
    }
  }
  const width = (highest - lowest) / steps
  let left = lowest + width * Math.max(0, bestStep - 1), right = lowest + width * Math.min(steps, bestStep + 1)
  const ratio = (Math.sqrt(5) - 1) / 2
  let x1 = right - ratio * (right - left), x2 = left + ratio * (right - left)
  let f1 = profile(x1).logLikelihood, f2 = profile(x2).logLikelihood
  for (let iteration = 0; iteration < 60 && right - left > 1e-8; iteration++) {
    if (f1 > f2) {
      right = x2; x2 = x1; f2 = f1
      x1 = right - ratio * (right - left)
      f1 = profile(x1).logLikelihood
    } else {
      left = x1; x1 = x2; f1 = f2
      x2 = left + ratio * (right - left)
      f2 = profile(x2).logLikelihood
    }
  }
  const best = profile((left + right) / 2, sorted)
  return gammaMarginal(best.a, best.loc, best.scale)
}
