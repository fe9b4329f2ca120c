import type { Random } from "@synth/synth"

/** Row indices a model trains on and the ones it is scored on. */
export interface Split {
  readonly train: Int32Array
  readonly test: Int32Array
}

/** Fisher–Yates, in place: every permutation equally likely for a given generator state. */
const shuffle = (indices: Int32Array, random: Random): Int32Array => {
  for (let i = indices.length - 1; i > 0; i--) {
    const j = random.integer(i + 1)
    const kept = indices[i]!
    indices[i] = indices[j]!
    indices[j] = kept
  }
  return indices
}

const sortedCopy = (indices: ArrayLike<number>) => Int32Array.from(indices).sort()

/**
 * Row indices grouped by class (classification) or all in one group (regression, `labels` null), each group shuffled:
 * splitting every group in the same proportions keeps class shares equal across train, test and folds, as
 * scikit-learn's stratified splitters do.
 */
const shuffledGroups = (rowCount: number, labels: Int32Array | null, random: Random): ReadonlyArray<Int32Array> => {
  if (labels === null) return [shuffle(Int32Array.from({ length: rowCount }, (_, i) => i), random)]
  const members = new Map<number, Array<number>>()
  for (let i = 0; i < rowCount; i++) {
    const group = members.get(labels[i]!)
    if (group === undefined) members.set(labels[i]!, [i])
    else group.push(i)
  }
  return [...members.keys()].sort((a, b) => a - b).map((label) => shuffle(Int32Array.from(members.get(label)!), random))
}

/**
 * Hold-out split: `testSize` of the rows (rounded up, at least one, at most all but one) for testing, stratified by
 * class when `labels` is given. Deterministic for a given generator state.
 */
export const trainTestSplit = (rowCount: number, testSize: number, labels: Int32Array | null, random: Random): Split => {
  if (rowCount < 2) throw new Error(`a train/test split needs at least 2 rows, got ${rowCount}`)
  if (!(testSize > 0 && testSize < 1)) throw new Error(`test_size must be between 0 and 1 (exclusive), got ${testSize}`)
  const testCount = Math.min(rowCount - 1, Math.max(1, Math.ceil(rowCount * testSize)))
  const train: Array<number> = [], test: Array<number> = []
  // Each class contributes its share of the test rows; the remainders go by largest fraction so the total is exact.
  const groups = shuffledGroups(rowCount, labels, random)
  const exact = groups.map((group) => (group.length * testCount) / rowCount)
  const quota = exact.map(Math.floor)
  let missing = testCount - quota.reduce((sum, q) => sum + q, 0)
  const byFraction = exact.map((value, index) => ({ index, fraction: value - Math.floor(value) })).sort((a, b) => b.fraction - a.fraction || a.index - b.index)
  for (const { index } of byFraction) {
    if (missing === 0) break
    if (quota[index]! < groups[index]!.length) {
      quota[index]!++
      missing--
    }
  }
  groups.forEach((group, g) => group.forEach((row, position) => (position < quota[g]! ? test : train).push(row)))
  return { train: sortedCopy(train), test: sortedCopy(test) }
}

/**
 * k folds; fold i tests on its rows and trains on the others. Each class is dealt round-robin over the folds after
 * shuffling (the rotation continues from class to class), so fold sizes differ by at most one and class shares match.
 */
export const kFolds = (rowCount: number, folds: number, labels: Int32Array | null, random: Random): ReadonlyArray<Split> => {
  if (!Number.isInteger(folds) || folds < 2) throw new Error(`cross_validation_folds must be an integer ≥ 2, got ${folds}`)
  if (rowCount < folds) throw new Error(`${folds}-fold cross-validation needs at least ${folds} rows, got ${rowCount}`)
  const foldOf = new Int32Array(rowCount)
  let next = 0
  for (const group of shuffledGroups(rowCount, labels, random)) {
    for (const row of group) {
      foldOf[row] = next
      next = (next + 1) % folds
    }
  }
  return Array.from({ length: folds }, (_, fold) => {
    const train: Array<number> = [], test: Array<number> = []
    for (let row = 0; row < rowCount; row++) (foldOf[row] === fold ? test : train).push(row)
    return { train: Int32Array.from(train), test: Int32Array.from(test) }
  })
}
