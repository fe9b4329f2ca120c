/** numpy's round(x, 14) (round half to even of x·1e14, divided back): SDMetrics rounds before the KS test. */
const roundTo14 = (x: number): number => {
  const scaled = x * 1e14
  let rounded = Math.round(scaled)
  if (rounded - scaled === 0.5 && rounded % 2 !== 0) rounded -= 1
  return rounded / 1e14
}

/** The two-sample KS statistic sup|F₁ − F₂| (scipy's ks_2samp), over sorted samples. */
export const ksTwoSample = (a: Float64Array, b: Float64Array): number => {
  let i = 0, j = 0, statistic = 0
  while (i < a.length && j < b.length) {
    const value = Math.min(a[i]!, b[j]!)
    while (i < a.length && a[i]! <= value) i++
    while (j < b.length && b[j]! <= value) j++
    statistic = Math.max(statistic, Math.abs(i / a.length - j / b.length))
  }
  return statistic
}

/**
 * SDMetrics' KSComplement: 1 − the KS statistic between the present values of the real and the synthetic column
 * (floats rounded to 14 decimals first, as SDMetrics does); NaN when either has no present value.
 */
export const ksComplement = (real: Float64Array, synthetic: Float64Array, roundFloats: boolean): number => {
  const prepare = (values: Float64Array) => {
    const present = values.filter((v) => !Number.isNaN(v))
    return (roundFloats ? present.map(roundTo14) : present).sort()
  }
  const a = prepare(real), b = prepare(synthetic)
  if (a.length === 0 || b.length === 0) return NaN
  return 1 - ksTwoSample(a, b)
}
