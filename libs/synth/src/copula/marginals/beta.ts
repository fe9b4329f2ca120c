import { betaRegularized, betaRegularizedInverse } from "../special/beta.ts"
import { digamma, logGamma, trigamma } from "../special/gamma.ts"
import type { Marginal } from "./Marginal.ts"
import { nelderMead } from "./nelderMead.ts"
import { thinSorted } from "./thinSorted.ts"

/** scipy's beta(a, b, loc, scale). */
export const betaMarginal = (a: number, b: number, loc: number, scale: number): Marginal => ({
  family: "beta",
  params: { a, b, loc, scale },
  cdf: (x) => betaRegularized((x - loc) / scale, a, b),
  ppf: (u) => loc + scale * betaRegularizedInverse(u, a, b)
})

interface BetaFit {
  readonly a: number
  readonly b: number
  readonly logLikelihood: number
}

/** a and b by maximum likelihood for fixed bounds: Newton on ψ(a) − ψ(a+b) = mean log y, ψ(b) − ψ(a+b) = mean log(1−y). */
const shapesWithin = (values: Float64Array, loc: number, scale: number): BetaFit => {
  const n = values.length
  let sumLog = 0, sumLogComplement = 0, sum = 0, squares = 0
  for (let i = 0; i < n; i++) {
    const y = (values[i]! - loc) / scale
    sumLog += Math.log(y)
    sumLogComplement += Math.log1p(-y)
    sum += y
    squares += y * y
  }
  const meanLog = sumLog / n, meanLogComplement = sumLogComplement / n
  const mean = sum / n
  const common = (mean * (1 - mean)) / (squares / n - mean * mean) - 1
  let a = common > 0 ? mean * common : 1
  let b = common > 0 ? (1 - mean) * common : 1
  for (let iteration = 0; iteration < 100; iteration++) {
    const both = digamma(a + b)
    const f1 = digamma(a) - both - meanLog
    const f2 = digamma(b) - both - meanLogComplement
    const t = trigamma(a + b)
    const j11 = trigamma(a) - t, j22 = trigamma(b) - t, j12 = -t
    const determinant = j11 * j22 - j12 * j12
    let stepA = (j22 * f1 - j12 * f2) / determinant
    let stepB = (j11 * f2 - j12 * f1) / determinant
    // Halve the step until both shapes stay positive.
    while (a - stepA <= 0 || b - stepB <= 0) {
      stepA /= 2
      stepB /= 2
    }
    a -= stepA
    b -= stepB
    if (Math.abs(stepA) < 1e-12 * a && Math.abs(stepB) < 1e-12 * b) break
  }
  const logBeta = logGamma(a) + logGamma(b) - logGamma(a + b)
  const logLikelihood = n * ((a - 1) * meanLog + (b - 1) * meanLogComplement - logBeta - Math.log(scale))
  return { a, b, logLikelihood }
}

/**
 * copulas' BetaUnivariate: scipy's four-parameter beta.fit started from loc = min, scale = max − min. Here the
 * bounds are searched (Nelder–Mead on the log gaps below the minimum and above the maximum, each at least one
 * expected spacing, range/(n + 1), where the likelihood would otherwise be 0 or unbounded) with a and b solved in
 * closed form for each pair of bounds; the search runs on ≤ 20,000 order statistics, the final shapes on all values.
 */
export const fitBeta = (sorted: Float64Array): Marginal => {
  const n = sorted.length
  const min = sorted[0]!, max = sorted[n - 1]!
  const range = max - min
  const smallest = Math.log(range / (n + 1)), largest = Math.log(range * 10)
  const bounded = (logGap: number) => Math.min(largest, Math.max(smallest, logGap))
  const thinned = thinSorted(sorted)
  const negativeLogLikelihood = ([lowGap, highGap]: ReadonlyArray<number>) => {
    const loc = min - Math.exp(bounded(lowGap!))
    const scale = max + Math.exp(bounded(highGap!)) - loc
    const fit = shapesWithin(thinned, loc, scale)
    return Number.isFinite(fit.logLikelihood) ? -fit.logLikelihood : Infinity
  }
  const start = smallest + 1
  const [lowGap, highGap] = nelderMead(negativeLogLikelihood, [start, start], [1.5, 1.5], 150, 1e-9)
  const loc = min - Math.exp(bounded(lowGap!))
  const scale = max + Math.exp(bounded(highGap!)) - loc
  const { a, b } = shapesWithin(sorted, loc, scale)
  return betaMarginal(a, b, loc, scale)
}
