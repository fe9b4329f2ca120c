export interface CategoryAdherence {
  /** Share of synthetic values that are real categories; null for an empty synthetic column. */
  readonly score: number | null
  /** Synthetic categories the real column does not have. */
  readonly unknownCategories: ReadonlyArray<string>
  /** Synthetic values that are not real categories (missing ones included when the real column has none missing). */
  readonly invalid: number
}

/**
 * SDMetrics' CategoryAdherence: the share of synthetic values that occur in the real column; a missing synthetic
 * value is valid when the real column has missing values. Labels compare as text (ids from sharedLabelIds, −1
 * missing, `labels[id]` its text).
 */
export const categoryAdherence = (real: Int32Array, synthetic: Int32Array, labels: ReadonlyArray<string>): CategoryAdherence => {
  const known = new Uint8Array(labels.length)
  let realHasMissing = false
  for (const id of real) {
    if (id < 0) realHasMissing = true
    else known[id] = 1
  }
  const unknown = new Uint8Array(labels.length)
  let valid = 0
  for (const id of synthetic) {
    if (id < 0) {
      if (realHasMissing) valid++
    } else if (known[id] === 1) valid++
    else unknown[id] = 1
  }
  return {
    score: synthetic.length === 0 ? null : valid / synthetic.length,
    unknownCategories: labels.filter((_, id) => unknown[id] === 1),
    invalid: synthetic.length - valid
  }
}
