import type { Random } from "@synth/synth"
import { applyBinEdges, type BinEdges, type BinnedMatrix, defaultMaxBins, fitBinEdges } from "./binning.ts"
import type { FeatureMatrix } from "./features.ts"
import { leafOf, partitionRows, type Tree, TreeBuilder } from "./tree.ts"

/**
 * scikit-learn's RandomForestClassifier / RandomForestRegressor (1.9) defaults: 100 bootstrapped trees grown until
 * leaves are pure (or hold one row), √features tried per split for classification and all features for
 * regression, Gini / squared error, probabilities as the mean of the trees' leaf class shares.
 * Written here rather than taken from ml-random-forest 2.1 (see README: its CART makes a tree on 4,000 rows take 11 s).
 * Splits are searched over at most `maxBins` value bins per feature (exact when a feature has fewer distinct values).
 */
export interface ForestParameters {
  readonly trees: number
  readonly maxBins: number
}

export const forestDefaults: ForestParameters = { trees: 100, maxBins: defaultMaxBins }

export type ForestTask = { readonly kind: "classification"; readonly classCount: number } | { readonly kind: "regression" }

export interface ForestModel {
  /** Row-major class probabilities (`rowCount × classCount`) or one value per row. */
  readonly predict: (matrix: FeatureMatrix) => Float64Array
}

interface GrowContext {
  readonly data: BinnedMatrix
  readonly edges: BinEdges
  /** Classification: class code per row; regression: value per row. */
  readonly target: Int32Array | Float64Array
  /** Bootstrap multiplicity of each row (sklearn passes it as sample weight). */
  readonly weights: Float64Array
  readonly width: number
  readonly triedFeatures: number
  readonly rows: Int32Array
  readonly scratch: Int32Array
  readonly random: Random
  readonly builder: TreeBuilder
  /** Per bin (× width): weighted class counts, or [weight, Σ w·y] for regression; reset after each feature. */
  readonly binSums: Float64Array
  readonly binRows: Int32Array
  readonly touched: Int32Array
  /** Running sums of the left and right side of a candidate split. */
  readonly left: Float64Array
  readonly right: Float64Array
  /** Scratch for the random feature order of a node. */
  readonly order: Int32Array
}

/** Leaf output: weighted class shares, or the weighted mean. */
const outputOf = (context: GrowContext, start: number, end: number): Float64Array => {
  const { rows, target, weights, width } = context
  const output = new Float64Array(width)
  let total = 0
  for (let i = start; i < end; i++) {
    const row = rows[i]!, w = weights[row]!
    total += w
    if (width === 1) output[0]! += w * target[row]!
    else output[target[row]!]! += w
  }
  for (let k = 0; k < width; k++) output[k] = output[k]! / total
  return output
}

const isPure = (context: GrowContext, start: number, end: number): boolean => {
  const { rows, target } = context
  const first = target[rows[start]!]!
  for (let i = start + 1; i < end; i++) if (target[rows[i]!] !== first) return false
  return true
}

/**
 * Impurity decrease proxy sklearn maximises: Σ_k wL_k²/WL + Σ_k wR_k²/WR for Gini, SL²/WL + SR²/WR for squared
 * error (both equal the weighted impurity decrease up to terms fixed for the node).
 */
const proxyOf = (sums: Float64Array, total: number, width: number, isClassification: boolean): number => {
  if (!isClassification) return (sums[1]! * sums[1]!) / total
  let squares = 0
  for (let k = 0; k < width; k++) squares += sums[k]! * sums[k]!
  return squares / total
}

interface BestSplit {
  feature: number
  bin: number
  /** The next bin holding rows of the node: the split lies somewhere between `bin` and it. */
  nextBin: number
  proxy: number
}

/**
 * Evaluates one feature: sums per occupied bin (only the touched bins are visited and reset, so small nodes cost
 * O(rows) rather than O(bins)), then every boundary between occupied bins. Returns false for a constant feature.
 */
const evaluateFeature = (context: GrowContext, start: number, end: number, feature: number, nodeSums: Float64Array, nodeWeight: number, best: BestSplit): boolean => {
  const { data, rows, target, weights, binSums, binRows, touched } = context
  const isClassification = context.width > 1
  const slotWidth = isClassification ? context.width : 2
  let touchedCount = 0
  for (let i = start; i < end; i++) {
    const row = rows[i]!
    const bin = data.bins[row * data.featureCount + feature]!
    if (binRows[bin] === 0) touched[touchedCount++] = bin
    binRows[bin]!++
    const w = weights[row]!
    if (isClassification) binSums[bin * slotWidth + target[row]!]! += w
    else {
      binSums[bin * 2]! += w
      binSums[bin * 2 + 1]! += w * target[row]!
    }
  }
  const occupied = touched.subarray(0, touchedCount).sort()
  if (touchedCount > 1) {
    const { left, right } = context
    left.fill(0)
    let leftWeight = 0
    for (let t = 0; t < touchedCount - 1; t++) {
      const bin = occupied[t]!
      for (let k = 0; k < slotWidth; k++) left[k]! += binSums[bin * slotWidth + k]!
      if (isClassification) for (let k = 0; k < slotWidth; k++) leftWeight += binSums[bin * slotWidth + k]!
      else leftWeight = left[0]!
      for (let k = 0; k < slotWidth; k++) right[k] = nodeSums[k]! - left[k]!
      const proxy = proxyOf(left, leftWeight, slotWidth, isClassification) + proxyOf(right, nodeWeight - leftWeight, slotWidth, isClassification)
      if (proxy > best.proxy) {
        best.proxy = proxy
        best.feature = feature
        best.bin = bin
        best.nextBin = occupied[t + 1]!
      }
    }
  }
  for (let t = 0; t < touchedCount; t++) {
    const bin = occupied[t]!
    binRows[bin] = 0
    binSums.fill(0, bin * slotWidth, (bin + 1) * slotWidth)
  }
  return touchedCount > 1
}

/**
 * sklearn puts a threshold midway between the node's two neighbouring values, which may be several bins apart when
 * the node holds few rows; splitting right after the lower bin instead sends unseen values between them to the right
 * (measurably lower test accuracy). So the boundary between the two bins nearest to that midpoint is taken: training
 * rows fall the same way, and unseen values as sklearn sends them up to the width of one bin.
 */
const sklearnSplitBin = (edges: BinEdges, best: BestSplit): number => {
  const thresholds = edges.thresholds[best.feature]!
  const midpoint = (edges.binHigh[best.feature]![best.bin]! + edges.binLow[best.feature]![best.nextBin]!) / 2
  let chosen = best.bin
  for (let m = best.bin + 1; m < best.nextBin; m++) {
    if (Math.abs(thresholds[m]! - midpoint) < Math.abs(thresholds[chosen]! - midpoint)) chosen = m
  }
  return chosen
}

const grow = (context: GrowContext, node: number, start: number, end: number, constant: Uint8Array): void => {
  if (end - start < 2 || isPure(context, start, end)) return
  const isClassification = context.width > 1
  const slotWidth = isClassification ? context.width : 2
  const nodeSums = new Float64Array(slotWidth)
  let nodeWeight = 0
  for (let i = start; i < end; i++) {
    const row = context.rows[i]!, w = context.weights[row]!
    nodeWeight += w
    if (isClassification) nodeSums[context.target[row]!]! += w
    else {
      nodeSums[0]! += w
      nodeSums[1]! += w * context.target[row]!
    }
  }
  // Like sklearn (min_impurity_decrease 0), the best split is taken even when it does not lower the impurity.
  const best: BestSplit = { feature: -1, bin: -1, nextBin: -1, proxy: -Infinity }
  // Features in random order, as sklearn's BestSplitter draws them: every drawn feature counts towards
  // `triedFeatures`, constant ones included (those known constant from an ancestor cost nothing, the ones found
  // constant here are remembered for the subtree), and drawing goes on until one non-constant feature was seen.
  const featureCount = context.data.featureCount
  const order = context.order
  for (let f = 0; f < featureCount; f++) order[f] = f
  const childConstant = Uint8Array.from(constant)
  let visited = 0, nonConstant = 0
  for (let drawn = 0; drawn < featureCount && (visited < context.triedFeatures || nonConstant === 0); drawn++) {
    const pick = drawn + context.random.integer(featureCount - drawn)
    const feature = order[pick]!
    order[pick] = order[drawn]!
    order[drawn] = feature
    visited++
    if (constant[feature] === 1) continue
    if (evaluateFeature(context, start, end, feature, nodeSums, nodeWeight, best)) nonConstant++
    else childConstant[feature] = 1
  }
  if (best.feature < 0) return
  const splitBin = sklearnSplitBin(context.edges, best)
  const middle = partitionRows(context.rows, start, end, context.data, best.feature, splitBin, context.scratch)
  const left = context.builder.addLeaf(outputOf(context, start, middle))
  const right = context.builder.addLeaf(outputOf(context, middle, end))
  context.builder.split(node, best.feature, splitBin, left, right)
  grow(context, left, start, middle, childConstant)
  grow(context, right, middle, end, childConstant)
}

const growTree = (data: BinnedMatrix, edges: BinEdges, target: Int32Array | Float64Array, width: number, triedFeatures: number, random: Random): Tree => {
  // Bootstrap: n draws with replacement; rows never drawn take no part (weight 0), as in sklearn.
  const weights = new Float64Array(data.rowCount)
  for (let i = 0; i < data.rowCount; i++) weights[random.integer(data.rowCount)]!++
  const inBag: Array<number> = []
  for (let row = 0; row < data.rowCount; row++) if (weights[row]! > 0) inBag.push(row)
  const maxBins = Math.max(...data.binCounts)
  const context: GrowContext = {
    data,
    edges,
    target,
    weights,
    width,
    triedFeatures,
    rows: Int32Array.from(inBag),
    scratch: new Int32Array(inBag.length),
    random,
    builder: new TreeBuilder(width),
    binSums: new Float64Array(maxBins * Math.max(width, 2)),
    binRows: new Int32Array(maxBins),
    touched: new Int32Array(maxBins),
    left: new Float64Array(Math.max(width, 2)),
    right: new Float64Array(Math.max(width, 2)),
    order: new Int32Array(data.featureCount)
  }
  const root = context.builder.addLeaf(outputOf(context, 0, inBag.length))
  grow(context, root, 0, inBag.length, new Uint8Array(data.featureCount))
  return context.builder.build()
}

/** Fits the forest on `matrix`; trees draw from forks of `random`, so the result depends only on its seed. */
export const fitRandomForest = (matrix: FeatureMatrix, target: Int32Array | Float64Array, task: ForestTask, random: Random, parameters: ForestParameters = forestDefaults): ForestModel => {
  const edges = fitBinEdges(matrix, parameters.maxBins, "midpoint", false)
  const data = applyBinEdges(edges, matrix, false)
  const width = task.kind === "classification" ? task.classCount : 1
  const triedFeatures = task.kind === "classification" ? Math.max(1, Math.floor(Math.sqrt(matrix.featureCount))) : matrix.featureCount
  const trees = Array.from({ length: parameters.trees }, () => growTree(data, edges, target, width, triedFeatures, random.fork()))
  return {
    predict: (unseen) => {
      const binned = applyBinEdges(edges, unseen, false)
      const predictions = new Float64Array(unseen.rowCount * width)
      for (const tree of trees) {
        for (let i = 0; i < unseen.rowCount; i++) {
          const leaf = leafOf(tree, binned, i)
          for (let k = 0; k < width; k++) predictions[i * width + k]! += tree.output[leaf * width + k]! / trees.length
        }
      }
      return predictions
    }
  }
}
