export interface BoundaryAdherence {
  /** Share of synthetic values inside the real [min, max]; null when there is nothing to count. */
  readonly score: number | null
  readonly realMin: number | null
  readonly realMax: number | null
  /** Synthetic values outside [realMin, realMax] (missing ones included when the real column has none missing). */
  readonly outside: number
}

/**
 * SDMetrics' BoundaryAdherence: the share of synthetic values within the real column's [min, max] (inclusive). A
 * missing synthetic value is dropped when the real column has missing values too, and counts as outside otherwise.
 * Values with NaN for missing, both in the same unit.
 */
export const boundaryAdherence = (real: Float64Array, synthetic: Float64Array): BoundaryAdherence => {
  let min = Infinity, max = -Infinity, realHasMissing = false
  for (const value of real) {
    if (Number.isNaN(value)) realHasMissing = true
    else {
      if (value < min) min = value
      if (value > max) max = value
    }
  }
  const hasRange = min <= max
  let counted = 0, inside = 0
  for (const value of synthetic) {
    if (Number.isNaN(value) && realHasMissing) continue
    counted++
    if (hasRange && value >= min && value <= max) inside++
  }
  return {
    score: counted === 0 ? null : inside / counted,
    realMin: hasRange ? min : null,
    realMax: hasRange ? max : null,
    outside: counted - inside
  }
}
