/**
 * A distribution known by its cdf and pdf on a uniform grid: cdf between knots by cubic Hermite interpolation
 * (the pdf is the cdf's derivative, so the error is O(step⁴)), ppf by bisection on the knots and Newton steps on
 * that cubic. The KDE uses it so that a cdf costs O(1) instead of O(n) kernel evaluations.
 */
export interface GridDistribution {
  readonly cdf: (x: number) => number
  readonly ppf: (u: number) => number
}

export const gridDistribution = (start: number, step: number, cdfs: Float64Array, pdfs: Float64Array): GridDistribution => {
  const last = cdfs.length - 1
  const end = start + last * step
  const hermite = (i: number, t: number) => {
    const t2 = t * t, t3 = t2 * t
    return (
      (2 * t3 - 3 * t2 + 1) * cdfs[i]! + (t3 - 2 * t2 + t) * step * pdfs[i]! +
      (-2 * t3 + 3 * t2) * cdfs[i + 1]! + (t3 - t2) * step * pdfs[i + 1]!
    )
  }
  const hermiteSlope = (i: number, t: number) => {
    const t2 = t * t
    return (6 * t2 - 6 * t) * (cdfs[i]! - cdfs[i + 1]!) / step + (3 * t2 - 4 * t + 1) * pdfs[i]! + (3 * t2 - 2 * t) * pdfs[i + 1]!
  }
  const cdf = (x: number) => {
    if (!(x > start)) return x <= start ? cdfs[0]! : NaN
    if (x >= end) return cdfs[last]!
    const position = (x - start) / step
    const i = Math.min(last - 1, Math.floor(position))
    return Math.min(1, Math.max(0, hermite(i, position - i)))
  }
  const ppf = (u: number) => {
    if (u <= cdfs[0]!) return start
    if (u >= cdfs[last]!) return end
    let low = 0, high = last
    while (high - low > 1) {
      const middle = (low + high) >>> 1
      if (cdfs[middle]! <= u) low = middle
      else high = middle
    }
    const width = cdfs[high]! - cdfs[low]!
    let t = width > 0 ? (u - cdfs[low]!) / width : 0
    for (let iteration = 0; iteration < 4; iteration++) {
      const slope = hermiteSlope(low, t)
      if (!(slope > 0)) break
      t = Math.min(1, Math.max(0, t - (hermite(low, t) - u) / (slope * step)))
    }
    return start + (low + t) * step
  }
  return { cdf, ppf }
}
