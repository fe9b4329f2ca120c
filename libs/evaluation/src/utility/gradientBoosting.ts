import { applyBinEdges, type BinEdges, type BinnedMatrix, defaultMaxBins, fitBinEdges } from "./binning.ts"
import type { FeatureMatrix } from "./features.ts"
import { leafOf, partitionRows, type Tree, TreeBuilder } from "./tree.ts"

/**
 * XGBoost's regularised second-order boosting (Chen & Guestrin 2016) with its `hist` tree method, written here
 * because no XGBoost binding installs in this runtime. Defaults are XGBoost's Python defaults (3.x).
 */
export interface BoostingParameters {
  /** `n_estimators`: boosting rounds (one tree per round, one per class per round for multiclass). */
  readonly rounds: number
  readonly maxDepth: number
  /** `eta`: each tree's leaf weights are scaled by it. */
  readonly learningRate: number
  /** `reg_lambda`: L2 penalty on leaf weights. */
  readonly lambda: number
  /** `gamma` / `min_split_loss`: a split must reduce the loss by at least this much. */
  readonly gamma: number
  /** Each child of a split needs at least this hessian sum. */
  readonly minChildWeight: number
  /** `max_bin` of the histogram. */
  readonly maxBins: number
}

export const xgboostDefaults: BoostingParameters = { rounds: 100, maxDepth: 6, learningRate: 0.3, lambda: 1, gamma: 0, minChildWeight: 1, maxBins: defaultMaxBins }

/** `binary:logistic`, `multi:softprob` or `reg:squarederror`. */
export type BoostingObjective = { readonly kind: "binary" } | { readonly kind: "multiclass"; readonly classCount: number } | { readonly kind: "squaredError" }

export interface BoostedModel {
  /** Row-major class probabilities (`rowCount × classCount`, binary as two columns) or one value per row. */
  readonly predict: (matrix: FeatureMatrix) => Float64Array
}

/** XGBoost's `kRtEps`: a split must gain more than this. */
const minimumGain = 1e-6
/** XGBoost's floor on hessians so a saturated probability still weighs something. */
const minimumHessian = 1e-16

const sigmoid = (margin: number) => 1 / (1 + Math.exp(-margin))

/**
 * The intercept XGBoost 2/3 estimates (`base_score`), in margin space: the mean for squared error, the logit of the
 * positive share for logistic loss, and for softmax the log class shares centred on their mean.
 */
export const baseMargins = (objective: BoostingObjective, target: Int32Array | Float64Array): Float64Array => {
  if (objective.kind === "squaredError") {
    let sum = 0
    for (const y of target) sum += y
    return Float64Array.of(sum / target.length)
  }
  const classCount = objective.kind === "binary" ? 2 : objective.classCount
  const shares = new Float64Array(classCount)
  for (const y of target) shares[y]! += 1 / target.length
  // A training table with one class only would give an infinite margin; the clamp keeps predictions finite.
  if (objective.kind === "binary") {
    const positive = Math.min(Math.max(shares[1]!, minimumHessian), 1 - minimumHessian)
    return Float64Array.of(Math.log(positive / (1 - positive)))
  }
  const logs = shares.map((share) => Math.log(Math.max(share, minimumHessian)))
  const mean = logs.reduce((sum, value) => sum + value, 0) / classCount
  return logs.map((value) => value - mean)
}

/** G² / (H + λ): the loss reduction a leaf with these sums achieves (0 below min_child_weight, as XGBoost's CalcGain). */
const leafGain = (gradient: number, hessian: number, p: BoostingParameters) =>
  hessian < p.minChildWeight || hessian <= 0 ? 0 : (gradient * gradient) / (hessian + p.lambda)

/** −G / (H + λ) scaled by η (0 below min_child_weight, as XGBoost's CalcWeight). */
const leafWeight = (gradient: number, hessian: number, p: BoostingParameters) =>
  hessian < p.minChildWeight || hessian <= 0 ? 0 : (-gradient / (hessian + p.lambda)) * p.learningRate

interface GrowContext {
  readonly data: BinnedMatrix
  /** Start of each feature's bins in a histogram. */
  readonly binOffsets: Int32Array
  readonly totalBins: number
  readonly gradients: Float64Array
  readonly hessians: Float64Array
  readonly rows: Int32Array
  readonly scratch: Int32Array
  readonly parameters: BoostingParameters
  readonly builder: TreeBuilder
}

/** Gradient and hessian sums per (feature, bin) over `rows[start, end)`, interleaved [g, h]. */
const histogramOf = (context: GrowContext, start: number, end: number): Float64Array => {
  const { data, binOffsets, gradients, hessians, rows } = context
  const histogram = new Float64Array(context.totalBins * 2)
  const featureCount = data.featureCount
  for (let i = start; i < end; i++) {
    const row = rows[i]!
    const g = gradients[row]!, h = hessians[row]!
    const base = row * featureCount
    for (let f = 0; f < featureCount; f++) {
      const slot = (binOffsets[f]! + data.bins[base + f]!) * 2
      histogram[slot]! += g
      histogram[slot + 1]! += h
    }
  }
  return histogram
}

interface BestSplit {
  readonly feature: number
  readonly bin: number
  readonly gain: number
}

/**
 * Gains this close count as equal: two features that cut a node into the same rows have the same gain in exact
 * arithmetic but not always in floating point (sums in a different order), and XGBoost then keeps the lower feature.
 */
const tieTolerance = 1e-10

/**
 * XGBoost's split enumeration: every bin boundary of every feature, left = bins ≤ b; both children need hessian ≥
 * min_child_weight; gain = gain(left) + gain(right) − gain(parent). Ties keep the lower feature, then the lower bin.
 */
const bestSplitOf = (context: GrowContext, histogram: Float64Array, gradient: number, hessian: number): BestSplit | null => {
  const { data, binOffsets, parameters } = context
  const parentGain = leafGain(gradient, hessian, parameters)
  let best: BestSplit | null = null
  for (let f = 0; f < data.featureCount; f++) {
    let leftGradient = 0, leftHessian = 0
    const first = binOffsets[f]!, binCount = data.binCounts[f]!
    for (let b = 0; b < binCount - 1; b++) {
      leftGradient += histogram[(first + b) * 2]!
      leftHessian += histogram[(first + b) * 2 + 1]!
      const rightHessian = hessian - leftHessian
      if (leftHessian < parameters.minChildWeight || rightHessian < parameters.minChildWeight) continue
      const gain = leafGain(leftGradient, leftHessian, parameters) + leafGain(gradient - leftGradient, rightHessian, parameters) - parentGain
      if (best === null ? gain > minimumGain : gain > best.gain + tieTolerance * Math.abs(best.gain)) best = { feature: f, bin: b, gain }
    }
  }
  return best !== null && best.gain >= parameters.gamma ? best : null
}

/** Grows the subtree for `rows[start, end)` at `node` (already added as a leaf) to max_depth. */
const grow = (context: GrowContext, node: number, start: number, end: number, depth: number, histogram: Float64Array, gradient: number, hessian: number): void => {
  if (depth >= context.parameters.maxDepth) return
  const split = bestSplitOf(context, histogram, gradient, hessian)
  if (split === null) return
  const middle = partitionRows(context.rows, start, end, context.data, split.feature, split.bin, context.scratch)
  // Sums of the left child from the parent's histogram (exact bins), the right child by difference.
  let leftGradient = 0, leftHessian = 0
  const first = context.binOffsets[split.feature]!
  for (let b = 0; b <= split.bin; b++) {
    leftGradient += histogram[(first + b) * 2]!
    leftHessian += histogram[(first + b) * 2 + 1]!
  }
  const rightGradient = gradient - leftGradient, rightHessian = hessian - leftHessian
  // Build the smaller child's histogram and subtract it from the parent's for the other (XGBoost does the same).
  const leftIsSmaller = middle - start <= end - middle
  const smaller = leftIsSmaller ? histogramOf(context, start, middle) : histogramOf(context, middle, end)
  const larger = histogram
  for (let i = 0; i < larger.length; i++) larger[i] = larger[i]! - smaller[i]!
  const [leftHistogram, rightHistogram] = leftIsSmaller ? [smaller, larger] : [larger, smaller]
  const { parameters, builder } = context
  const left = builder.addLeaf([leafWeight(leftGradient, leftHessian, parameters)])
  const right = builder.addLeaf([leafWeight(rightGradient, rightHessian, parameters)])
  builder.split(node, split.feature, split.bin, left, right)
  grow(context, left, start, middle, depth + 1, leftHistogram, leftGradient, leftHessian)
  grow(context, right, middle, end, depth + 1, rightHistogram, rightGradient, rightHessian)
}

const growTree = (data: BinnedMatrix, binOffsets: Int32Array, gradients: Float64Array, hessians: Float64Array, parameters: BoostingParameters): Tree => {
  const rows = Int32Array.from({ length: data.rowCount }, (_, i) => i)
  const context: GrowContext = {
    data,
    binOffsets,
    totalBins: binOffsets[binOffsets.length - 1]! + (data.binCounts[data.featureCount - 1] ?? 0),
    gradients,
    hessians,
    rows,
    scratch: new Int32Array(data.rowCount),
    parameters,
    builder: new TreeBuilder(1)
  }
  let gradient = 0, hessian = 0
  for (let i = 0; i < data.rowCount; i++) {
    gradient += gradients[i]!
    hessian += hessians[i]!
  }
  const root = context.builder.addLeaf([leafWeight(gradient, hessian, parameters)])
  grow(context, root, 0, data.rowCount, 0, histogramOf(context, 0, data.rowCount), gradient, hessian)
  return context.builder.build()
}

/** Writes each row's gradient and hessian of class `k` (0 for single-output objectives) given current margins. */
const fillGradients = (objective: BoostingObjective, target: Int32Array | Float64Array, margins: Float64Array, k: number, gradients: Float64Array, hessians: Float64Array) => {
  const rowCount = target.length
  if (objective.kind === "squaredError") {
    for (let i = 0; i < rowCount; i++) {
      gradients[i] = margins[i]! - target[i]!
      hessians[i] = 1
    }
  } else if (objective.kind === "binary") {
    for (let i = 0; i < rowCount; i++) {
      const p = sigmoid(margins[i]!)
      gradients[i] = p - target[i]!
      hessians[i] = Math.max(p * (1 - p), minimumHessian)
    }
  } else {
    const classCount = objective.classCount
    for (let i = 0; i < rowCount; i++) {
      const p = softmaxAt(margins, i * classCount, classCount, k)
      gradients[i] = p - (target[i] === k ? 1 : 0)
      hessians[i] = Math.max(2 * p * (1 - p), minimumHessian)
    }
  }
}

const softmaxAt = (margins: Float64Array, offset: number, classCount: number, k: number) => {
  let max = -Infinity
  for (let c = 0; c < classCount; c++) max = Math.max(max, margins[offset + c]!)
  let sum = 0
  for (let c = 0; c < classCount; c++) sum += Math.exp(margins[offset + c]! - max)
  return Math.exp(margins[offset + k]! - max) / sum
}

/** Margins of every row: base margin plus the leaf weight of each of that output's trees. */
const marginsOf = (trees: ReadonlyArray<ReadonlyArray<Tree>>, base: Float64Array, data: BinnedMatrix): Float64Array => {
  const width = base.length
  const margins = new Float64Array(data.rowCount * width)
  for (let i = 0; i < data.rowCount; i++) for (let k = 0; k < width; k++) margins[i * width + k] = base[k]!
  for (const round of trees) {
    round.forEach((tree, k) => {
      for (let i = 0; i < data.rowCount; i++) margins[i * width + k]! += tree.output[leafOf(tree, data, i)]!
    })
  }
  return margins
}

const toPredictions = (objective: BoostingObjective, margins: Float64Array, rowCount: number): Float64Array => {
  if (objective.kind === "squaredError") return margins
  if (objective.kind === "binary") {
    const probabilities = new Float64Array(rowCount * 2)
    for (let i = 0; i < rowCount; i++) {
      const p = sigmoid(margins[i]!)
      probabilities[i * 2] = 1 - p
      probabilities[i * 2 + 1] = p
    }
    return probabilities
  }
  const classCount = objective.classCount
  return Float64Array.from({ length: rowCount * classCount }, (_, j) => softmaxAt(margins, j - (j % classCount), classCount, j % classCount))
}

/**
 * Fits boosted trees on `matrix` (class codes 0…k−1 or numbers in `target`). Features are binned once from the
 * training rows as float32 values, XGBoost's hist cut points (one bin per distinct value up to `maxBins`, else
 * quantiles); unseen rows are binned with the same cuts, so a split reads "x < cut value" as XGBoost's does.
 */
export const fitGradientBoosting = (matrix: FeatureMatrix, target: Int32Array | Float64Array, objective: BoostingObjective, parameters: BoostingParameters = xgboostDefaults): BoostedModel => {
  const edges: BinEdges = fitBinEdges(matrix, parameters.maxBins, "nextValue", true)
  const data = applyBinEdges(edges, matrix, true)
  const binOffsets = new Int32Array(data.featureCount)
  for (let f = 1; f < data.featureCount; f++) binOffsets[f] = binOffsets[f - 1]! + data.binCounts[f - 1]!
  const base = baseMargins(objective, target)
  const width = base.length
  const margins = new Float64Array(data.rowCount * width)
  for (let i = 0; i < data.rowCount; i++) for (let k = 0; k < width; k++) margins[i * width + k] = base[k]!
  const gradients = new Float64Array(data.rowCount), hessians = new Float64Array(data.rowCount)
  const trees: Array<ReadonlyArray<Tree>> = []
  for (let round = 0; round < parameters.rounds; round++) {
    // All of a round's trees see the margins from before the round, as XGBoost computes gradients once per round.
    const roundTrees = Array.from({ length: width }, (_, k) => {
      fillGradients(objective, target, margins, k, gradients, hessians)
      return growTree(data, binOffsets, gradients, hessians, parameters)
    })
    roundTrees.forEach((tree, k) => {
      for (let i = 0; i < data.rowCount; i++) margins[i * width + k]! += tree.output[leafOf(tree, data, i)]!
    })
    trees.push(roundTrees)
  }
  return {
    predict: (unseen) => {
      const binned = applyBinEdges(edges, unseen, true)
      return toPredictions(objective, marginsOf(trees, base, binned), unseen.rowCount)
    }
  }
}
