/**
 * SDMetrics' TVComplement: 1 − ½·Σ|f_synthetic − f_real| over the present values (ids from columnViews'
 * sharedLabelIds). A value only the synthetic column has counts 1e-6 in the real one, as SDMetrics' get_frequencies
 * regularises it (so the real total grows by 1e-6 too). NaN when either column has no present value.
 */
export const tvComplement = (real: Int32Array, synthetic: Int32Array, size: number): number => {
  const realCounts = new Float64Array(size), syntheticCounts = new Float64Array(size)
  let realTotal = 0, syntheticTotal = 0
  for (const id of real) if (id >= 0) { realCounts[id]!++; realTotal++ }
  for (const id of synthetic) if (id >= 0) { syntheticCounts[id]!++; syntheticTotal++ }
  if (realTotal === 0 || syntheticTotal === 0) return NaN
  for (let id = 0; id < size; id++) {
    if (syntheticCounts[id]! > 0 && realCounts[id] === 0) {
      realCounts[id] = 1e-6
      realTotal += 1e-6
    }
  }
  let variation = 0
  for (let id = 0; id < size; id++) {
    if (realCounts[id] === 0) continue
    variation += Math.abs(syntheticCounts[id]! / syntheticTotal - realCounts[id]! / realTotal)
  }
  return 1 - 0.5 * variation
}
