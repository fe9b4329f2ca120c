import { clipProbability, ldexp, TWO_POW_128, TWO_POW_MINUS_128 } from "./scaling.ts"

const multiply = (a: Float64Array, b: Float64Array, size: number): Float64Array => {
  const product = new Float64Array(size * size)
  for (let i = 0; i < size; i++) {
    for (let k = 0; k < size; k++) {
      const aik = a[i * size + k]!
      if (aik === 0) continue
      for (let j = 0; j < size; j++) product[i * size + j]! += aik * b[k * size + j]!
    }
  }
  return product
}

/**
 * P(D_n ≤ d) of the two-sided one-sample KS statistic by Durbin's matrix (the k-th diagonal entry of
 * (n!/nⁿ)·Hⁿ), as Marsaglia, Tsang and Wang compute it — scipy's _kolmogn_DMTW, with its power-of-2 rescaling.
 * O(k³ log n) for k = ⌈nd⌉, so only used where nd is small.
 */
export const durbinMatrixCdf = (n: number, d: number): number => {
  if (d >= 1) return 1
  const nd = n * d
  if (nd <= 0.5) return 0
  const k = Math.ceil(nd)
  const h = k - nd
  const m = 2 * k - 1
  const v = new Float64Array(m), w = new Float64Array(m)
  let factorial = 1
  for (let j = 1; j <= m; j++) {
    w[j - 1] = factorial
    factorial /= j
    v[j - 1] = (1 - h ** j) * factorial
  }
  const correction = Math.max(2 * h - 1, 0) ** m - 2 * h ** m
  v[m - 1] = (1 + correction) * factorial

  let matrix: Float64Array = new Float64Array(m * m)
  for (let i = 1; i < m; i++) for (let row = i - 1; row < m; row++) matrix[row * m + i] = w[row - i + 1]!
  for (let row = 0; row < m; row++) matrix[row * m] = v[row]!
  for (let column = 0; column < m; column++) matrix[(m - 1) * m + column] = v[m - 1 - column]!

  let power: Float64Array = new Float64Array(m * m)
  for (let i = 0; i < m; i++) power[i * m + i] = 1
  let exponent = 0, matrixExponent = 0
  for (let remaining = n; remaining > 0; remaining = Math.floor(remaining / 2)) {
    if (remaining % 2 === 1) {
      power = multiply(power, matrix, m)
      exponent += matrixExponent
    }
    matrix = multiply(matrix, matrix, m)
    matrixExponent *= 2
    if (Math.abs(matrix[(k - 1) * m + k - 1]!) > TWO_POW_128) {
      for (let i = 0; i < matrix.length; i++) matrix[i]! /= TWO_POW_128
      matrixExponent += 128
    }
  }
  let p = power[(k - 1) * m + k - 1]!
  for (let i = 1; i <= n; i++) {
    p = (i * p) / n
    if (Math.abs(p) < TWO_POW_MINUS_128) {
      p *= TWO_POW_128
      exponent -= 128
    }
  }
  return clipProbability(ldexp(p, exponent))
}
