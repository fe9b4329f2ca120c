import type { SynthTable } from "@synth/synth"
import { distanceTables, type DistanceTables } from "./distanceTables.ts"

export interface ClosestRecords {
  /** Per row: the distance to its closest reference row, the mean of the per-column distances (0 … 1). */
  readonly nearest: Float64Array
  /** Per row: the distance to its second-closest reference row (Infinity with a single reference row). */
  readonly secondNearest: Float64Array
}

const CATEGORICAL = 0, NUMERIC = 1, CONSTANT = 2

/**
 * For every row, the distance to its closest and second-closest reference rows with SDMetrics' DCR distance
 * (calculate_dcr): the mean over the columns of, for numbers, |a − b|/range capped at 1 (a zero range: 0 when equal,
 * else 1) and, for categories, 0 when equal, else 1; one side missing 1, both missing 0. A scan of all n × m pairs
 * over the reference rows laid out row by row, which stops adding a pair's columns once their sum reaches the
 * second-best so far: the terms are never negative, so this skips only pairs that cannot be among the two closest,
 * and the sums keep SDMetrics' column order. Categories are ids (−1 missing) and numbers NaN when missing, both
 * held as doubles, so NaN comparisons do the missing cases (NaN < 1 and NaN !== NaN).
 */
export const closestRecords = (tables: DistanceTables): ClosestRecords => {
  const { columns, rowCount, referenceCount } = tables
  const width = columns.length
  const kinds = Uint8Array.from(columns, (column) => (column.kind === "categorical" ? CATEGORICAL : column.range === 0 ? CONSTANT : NUMERIC))
  const ranges = Float64Array.from(columns, (column) => (column.kind === "continuous" ? column.range : 1))
  const reference = new Float64Array(referenceCount * width)
  columns.forEach((column, c) => {
    for (let j = 0; j < referenceCount; j++) reference[j * width + c] = column.reference[j]!
  })
  const row = new Float64Array(width)
  const nearest = new Float64Array(rowCount), secondNearest = new Float64Array(rowCount)
  for (let i = 0; i < rowCount; i++) {
    for (let c = 0; c < width; c++) row[c] = columns[c]!.rows[i]!
    let best = Infinity, second = Infinity
    for (let j = 0, base = 0; j < referenceCount; j++, base += width) {
      let sum = 0
      for (let c = 0; c < width && sum < second; c++) {
        const value = row[c]!, other = reference[base + c]!
        const kind = kinds[c]
        if (kind === CATEGORICAL) {
          if (value !== other) sum += 1
        } else if (value !== value) {
          if (other === other) sum += 1
        } else if (kind === CONSTANT) {
          if (value - other !== 0) sum += 1
        } else {
          const distance = Math.abs(value - other) / ranges[c]!
          sum += distance < 1 ? distance : 1
        }
      }
      if (sum < best) {
        second = best
        best = sum
      } else if (sum < second) second = sum
    }
    nearest[i] = best / width
    secondNearest[i] = second / width
  }
  return { nearest, secondNearest }
}

/** closestRecords for every row of `rows` among the rows of `reference`, over the columns both tables have. */
export const closestRecordDistances = (rows: SynthTable, reference: SynthTable): ClosestRecords => closestRecords(distanceTables(rows, reference))
