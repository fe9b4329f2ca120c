import { twoSampleKsStatistic } from "@synth/stats"

/** numpy's round(x, 14) (round half to even of x·1e14, divided back): SDMetrics rounds before the KS test. */
const roundTo14 = (x: number): number => {
  const scaled = x * 1e14
  let rounded = Math.round(scaled)
  if (rounded - scaled === 0.5 && rounded % 2 !== 0) rounded -= 1
  return rounded / 1e14
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
  return 1 - twoSampleKsStatistic(a, b)
}
