import { clipProbability, ldexp, TWO_POW_128, TWO_POW_MINUS_128 } from "./scaling.ts"

/** The first and last non-zero entries of row i of Pomeranz's matrix (scipy's _pomeranz_compute_j1j2). */
const rowBounds = (i: number, n: number, ll: number, ceilF: number, roundF: number): readonly [number, number] => {
  let j1: number, j2: number
  if (i === 0) {
    j1 = -ll - ceilF - 1
    j2 = ll + ceilF - 1
  } else {
    const half = Math.floor((i + 1) / 2), odd = (i + 1) % 2
    if (odd === 0) {
      if (half === n + 1) {
        j1 = n - ll - ceilF - 1
        j2 = n + ll + ceilF - 1
      } else {
        j1 = half - 1 - ll - roundF - 1
        j2 = half + ll - 1 + ceilF - 1
      }
    } else {
      j1 = half - 1 - ll - 1
      j2 = half + ll + roundF - 1
    }
  }
  return [Math.max(j1 + 2, 0), Math.min(j2, n)]
}

/**
 * P(D_n ≤ x) by Pomeranz's recursion (each row the convolution of the previous with Poisson-like weights), as
 * scipy's _kolmogn_Pomeranz, which it uses for n ≤ 140 and 0.754693 < n·x² ≤ 4.
 */
export const pomeranzCdf = (n: number, x: number): number => {
  const t = n * x
  const ll = Math.floor(t)
  const f = t - ll
  const g = Math.min(f, 1 - f)
  const ceilF = f > 0 ? 1 : 0
  const roundF = f > 0.5 ? 1 : 0
  const powers = 2 * (ll + 1)
  const gPower = new Float64Array(powers), twoGPower = new Float64Array(powers), oneMinusTwoGPower = new Float64Array(powers)
  gPower[0] = twoGPower[0] = oneMinusTwoGPower[0] = 1
  const gOverN = g / n, twoGOverN = (2 * g) / n, oneMinusTwoGOverN = (1 - 2 * g) / n
  for (let m = 1; m < powers; m++) {
    gPower[m] = (gPower[m - 1]! * gOverN) / m
    twoGPower[m] = (twoGPower[m - 1]! * twoGOverN) / m
    oneMinusTwoGPower[m] = (oneMinusTwoGPower[m - 1]! * oneMinusTwoGOverN) / m
  }

  let previous = new Float64Array(powers), current = new Float64Array(powers)
  current[0] = 1
  let previousStart = 0, currentStart = 0, exponent = 0
  let [j1, j2] = rowBounds(0, n, ll, ceilF, roundF)
  for (let i = 1; i < 2 * n + 2; i++) {
    const k1 = j1
    ;[previous, current] = [current, previous]
    ;[previousStart, currentStart] = [currentStart, previousStart]
    current.fill(0)
    ;[j1, j2] = rowBounds(i, n, ll, ceilF, roundF)
    const weights = i === 1 || i === 2 * n + 1 ? gPower : i % 2 === 1 ? twoGPower : oneMinusTwoGPower
    const width = j2 - k1 + 1
    if (width <= 0) continue
    // np.convolve(previous[k1 − start : k1 − start + width], weights[:width]), entries j1 − k1 … j2 − k1.
    const offset = k1 - previousStart
    const aLength = Math.min(width, powers - offset), bLength = Math.min(width, powers)
    const first = j1 - k1, count = j2 - j1 + 1
    let largest = 0
    for (let c = 0; c < count; c++) {
      const index = first + c
      let sum = 0
      for (let a = Math.max(0, index - bLength + 1); a <= Math.min(index, aLength - 1); a++) sum += previous[offset + a]! * weights[index - a]!
      current[c] = sum
      if (sum > largest) largest = sum
    }
    if (largest > 0 && largest < TWO_POW_MINUS_128) {
      for (let c = 0; c < powers; c++) current[c]! *= TWO_POW_128
      exponent -= 128
    }
    currentStart = previousStart + j1 - k1
  }
  let answer = current[n - currentStart]!
  for (let m = 1; m <= n; m++) {
    if (Math.abs(answer) > TWO_POW_128) {
      answer *= TWO_POW_MINUS_128
      exponent += 128
    }
    answer *= m
  }
  return clipProbability(ldexp(answer, exponent))
}
