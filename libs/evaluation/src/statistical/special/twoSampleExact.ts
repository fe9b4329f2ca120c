/**
 * The exact null distribution of the two-sample KS statistic that scipy's ks_2samp uses when both samples have at
 * most 10,000 values: P(D ≥ h/lcm(m, n)) by counting lattice paths (Hodges; Viehmann's recursion for 1 − p).
 */

/** Equal sizes: 2·Σ_k (−1)^(k+1) C(2n, n − kh)/C(2n, n) in scipy's Horner form (_compute_prob_outside_square). */
const probabilityOutsideSquare = (n: number, h: number): number => {
  let p = 0
  for (let k = Math.floor(n / h); k >= 0; k--) {
    let term = 1
    for (let j = 0; j < h; j++) term = ((n - k * h - j) * term) / (n + k * h + j + 1)
    p = term * (1 - p)
  }
  return 2 * p
}

/** Unequal sizes: the share of paths leaving the band |x/m − y/n| < h/lcm (_compute_outer_prob_inside_method). */
const probabilityOutsideBand = (first: number, second: number, g: number, h: number): number => {
  const m = Math.max(first, second), n = Math.min(first, second)
  const mg = m / g, ng = n / g
  let minJ = 0
  let maxJ = Math.min(Math.ceil(h / mg), n + 1)
  let currentLength = maxJ - minJ
  const a = new Float64Array(Math.min(2 * maxJ + 2, n + 1)).fill(1)
  a.fill(0, minJ, maxJ)
  for (let i = 1; i <= m; i++) {
    const lastMinJ = minJ, lastLength = currentLength
    minJ = Math.min(Math.max(Math.floor((ng * i - h) / mg) + 1, 0), n)
    maxJ = Math.min(Math.ceil((ng * i + h) / mg), n + 1)
    if (maxJ <= minJ) return 1
    let value = minJ === 0 ? 0 : 1
    for (let jj = 0; jj < maxJ - minJ; jj++) {
      const j = jj + minJ
      value = (a[jj + minJ - lastMinJ]! * i + value * j) / (i + j)
      a[jj] = value
    }
    currentLength = maxJ - minJ
    if (lastLength > currentLength) a.fill(1, maxJ - minJ, maxJ - minJ + (lastLength - currentLength))
  }
  return a[maxJ - minJ - 1]!
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

/** numpy's round: half to even. */
export const roundHalfEven = (x: number): number => {
  const rounded = Math.round(x)
  return rounded - x === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded
}

/**
 * scipy's _attempt_exact_2kssamp (two-sided): the statistic snapped to the lattice, h/lcm, and P(D ≥ it); null when
 * the computation leaves [0, 1] (scipy then falls back to the asymptotic distribution).
 */
export const exactTwoSample = (n1: number, n2: number, d: number): { readonly statistic: number; readonly pValue: number | null } => {
  const g = gcd(n1, n2)
  const lcm = (n1 / g) * n2
  const h = roundHalfEven(d * lcm)
  const statistic = h / lcm
  if (h === 0) return { statistic, pValue: 1 }
  const p = n1 === n2 ? probabilityOutsideSquare(n1, h) : probabilityOutsideBand(n1, n2, g, h)
  return { statistic, pValue: p >= 0 && p <= 1 ? p : null }
}
