/**
 * The standard normal cdf Φ and its inverse. No installed package provides them (node_modules has neither jstat
 * nor @stdlib), so they are written here and checked against scipy (reference/fixtures/distributions.json).
 */

const SQRT_PI = Math.sqrt(Math.PI)

/** erf(x) for 0 ≤ x < 2.5: e^{-x²}·2x/√π·Σ (2x²)^n / (1·3·…·(2n+1)); every term positive, so nothing cancels. */
const erfSeries = (x: number): number => {
  const twoXSquared = 2 * x * x
  let term = 1
  let sum = 1
  for (let n = 1; n < 200; n++) {
    term *= twoXSquared / (2 * n + 1)
    sum += term
    if (term < sum * 1e-17) break
  }
  return ((2 * x) / SQRT_PI) * Math.exp(-x * x) * sum
}

/**
 * The continued fraction of erfc for x ≥ 2.5 (modified Lentz), as the denominator f with erfc(x) = e^{-x²}/(√π·f):
 * keeps full relative precision in the tail.
 */
const erfcDenominator = (x: number): number => {
  // erfc(x) = e^{-x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))
  const tiny = 1e-300
  let f = x
  let c = x
  let d = 0
  for (let n = 1; n < 500; n++) {
    const a = n / 2
    d = x + a * d
    d = d === 0 ? tiny : d
    c = x + a / c
    c = c === 0 ? tiny : c
    d = 1 / d
    const delta = c * d
    f *= delta
    if (Math.abs(delta - 1) < 1e-16) break
  }
  return f
}

const erfcContinuedFraction = (x: number): number => Math.exp(-x * x) / SQRT_PI / erfcDenominator(x)

export const erfc = (x: number): number => {
  if (Number.isNaN(x)) return NaN
  if (x < 0) return 2 - erfc(-x)
  return x < 2.5 ? 1 - erfSeries(x) : erfcContinuedFraction(x)
}

/** log erfc(x), finite however far in the tail (where erfc itself underflows, past x ≈ 26.5). */
export const logErfc = (x: number): number =>
  x < 2.5 ? Math.log(erfc(x)) : -x * x - Math.log(SQRT_PI) - Math.log(erfcDenominator(x))

/** Φ(x) = erfc(−x/√2)/2, accurate in both tails. */
export const normalCdf = (x: number): number => 0.5 * erfc(-x * Math.SQRT1_2)

/** 1 − Φ(x), without the cancellation of computing it as such. */
export const normalSurvival = (x: number): number => 0.5 * erfc(x * Math.SQRT1_2)

export const normalPdf = (x: number): number => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI)

/** Φ⁻¹(p) by Wichura's AS241 (PPND16), relative error about 1e-16; coefficients as published, to double precision. */
export const normalPpf = (p: number): number => {
  if (!(p >= 0 && p <= 1)) return NaN
  if (p === 0) return -Infinity
  if (p === 1) return Infinity
  const q = p - 0.5
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q
    return (
      (q *
        (((((((2509.0809287301227 * r + 33430.57558358813) * r + 67265.7709270087) * r +
          45921.95393154987) * r + 13731.69376550946) * r + 1971.5909503065513) * r +
          133.14166789178438) * r + 3.3871328727963665)) /
      (((((((5226.495278852545 * r + 28729.085735721943) * r + 39307.89580009271) * r +
        21213.794301586597) * r + 5394.196021424751) * r + 687.1870074920579) * r +
        42.31333070160091) * r + 1)
    )
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p))
  let value: number
  if (r <= 5) {
    r -= 1.6
    value =
      (((((((0.0007745450142783414 * r + 0.022723844989269184) * r + 0.2417807251774506) * r +
        1.2704582524523684) * r + 3.6478483247632045) * r + 5.769497221460691) * r +
        4.630337846156546) * r + 1.4234371107496835) /
      (((((((1.0507500716444169e-9 * r + 0.0005475938084995345) * r + 0.015198666563616457) * r +
        0.14810397642748008) * r + 0.6897673349851) * r + 1.6763848301838038) * r +
        2.053191626637759) * r + 1)
  } else {
    r -= 5
    value =
      (((((((2.0103343992922881e-7 * r + 0.000027115555687434876) * r + 0.0012426609473880784) * r +
        0.026532189526576124) * r + 0.29656057182850487) * r + 1.7848265399172913) * r +
        5.463784911164114) * r + 6.657904643501103) /
      (((((((2.0442631033899397e-15 * r + 1.421511758316446e-7) * r + 0.000018463183175100548) * r +
        0.0007868691311456133) * r + 0.014875361290850615) * r + 0.1369298809227358) * r +
        0.599832206555888) * r + 1)
  }
  return q < 0 ? -value : value
}
