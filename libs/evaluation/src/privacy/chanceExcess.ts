/** z of a one-sided test at α = 0.01. */
const Z_99 = 2.3263478740408408

/**
 * Whether `hits` of `total` is more than `baselineHits` of `baselineTotal` by more than sampling noise: the one-sided
 * two-proportion z-test at α = 0.01 (pooled variance). The baseline is what rows the generator never saw show, so an
 * excess is what the generator added. Without a baseline any hit counts.
 */
export const exceedsChance = (hits: number, total: number, baselineHits: number | null, baselineTotal: number | null): boolean => {
  if (hits === 0 || total === 0) return false
  if (baselineHits === null || baselineTotal === null || baselineTotal === 0) return true
  const rate = hits / total, baseline = baselineHits / baselineTotal
  if (rate <= baseline) return false
  const pooled = (hits + baselineHits) / (total + baselineTotal)
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / total + 1 / baselineTotal))
  return standardError === 0 || (rate - baseline) / standardError > Z_99
}
