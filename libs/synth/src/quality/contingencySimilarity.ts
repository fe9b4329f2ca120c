/** A discrete column as small non-negative keys: category ids shifted by one (0 = missing) or histogram bins. */
export interface DiscreteColumn {
  readonly keys: Int32Array
  /** One more than the largest key. */
  readonly size: number
}

export interface ContingencyResult {
  readonly score: number
  /** Cramér's V of the real table (NaN when the threshold is 0 and it is not needed). */
  readonly realAssociation: number
  readonly meetsThreshold: boolean
}

const pairCounts = (a: Int32Array, b: Int32Array, width: number, rows: Int32Array | null) => {
  const counts = new Map<number, number>()
  const count = rows === null ? a.length : rows.length
  for (let r = 0; r < count; r++) {
    const i = rows === null ? r : rows[r]!
    const key = a[i]! * width + b[i]!
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return { counts, total: count }
}

/** scipy.stats.contingency.association(method="cramer") on the observed table (rows and columns that occur). */
const cramersV = (counts: Map<number, number>, total: number, width: number): number => {
  const rowTotals = new Map<number, number>(), columnTotals = new Map<number, number>()
  for (const [key, count] of counts) {
    const row = Math.floor(key / width), column = key % width
    rowTotals.set(row, (rowTotals.get(row) ?? 0) + count)
    columnTotals.set(column, (columnTotals.get(column) ?? 0) + count)
  }
  if (total === 0 || Math.min(rowTotals.size, columnTotals.size) < 2) return NaN
  let chi2 = 0
  for (const [row, rowTotal] of rowTotals) {
    for (const [column, columnTotal] of columnTotals) {
      const expected = (rowTotal * columnTotal) / total
      const observed = counts.get(row * width + column) ?? 0
      chi2 += (observed - expected) ** 2 / expected
    }
  }
  return Math.sqrt(chi2 / total / (Math.min(rowTotals.size, columnTotals.size) - 1))
}

/**
 * SDMetrics' ContingencySimilarity inside the Quality Report: 1 − ½·Σ|p_real − p_synthetic| over the joint
 * frequencies of the two columns (missing values as a value of their own), counted only when the real table's
 * Cramér's V exceeds the report's association threshold (0.3 by default; 0 counts every pair). `realRows` and
 * `syntheticRows` restrict it to subsamples (SDMetrics subsamples tables over 50,000 rows); null for all rows.
 */
export const contingencySimilarity = (
  real: readonly [DiscreteColumn, DiscreteColumn],
  synthetic: readonly [DiscreteColumn, DiscreteColumn],
  threshold: number,
  realRows: Int32Array | null,
  syntheticRows: Int32Array | null
): ContingencyResult => {
  const width = Math.max(real[1].size, synthetic[1].size)
  const realTable = pairCounts(real[0].keys, real[1].keys, width, realRows)
  let realAssociation = NaN
  if (threshold > 0) {
    realAssociation = cramersV(realTable.counts, realTable.total, width)
    if (!(realAssociation > threshold)) return { score: NaN, realAssociation, meetsThreshold: false }
  }
  const syntheticTable = pairCounts(synthetic[0].keys, synthetic[1].keys, width, syntheticRows)
  let variation = 0
  for (const [key, count] of realTable.counts) {
    variation += Math.abs(count / realTable.total - (syntheticTable.counts.get(key) ?? 0) / syntheticTable.total)
  }
  for (const [key, count] of syntheticTable.counts) if (!realTable.counts.has(key)) variation += count / syntheticTable.total
  return { score: 1 - variation / 2, realAssociation, meetsThreshold: true }
}
