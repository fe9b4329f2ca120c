import { makeRandom, type Random, type SynthTable } from "@synth/synth"
import { encodeFeatures, type FeatureLayout, fitImputation, planFeatures } from "./features.ts"
import { type Algorithm, algorithms as knownAlgorithms, fitModel } from "./models.ts"
import { higherIsBetter, type MetricName, metricsOf, type Scores, scorePredictions } from "./scores.ts"
import { kFolds, type Split, trainTestSplit } from "./splits.ts"
import { inferTargetColumn, resolveTarget, rowsWithTarget, type Target, targetOf } from "./target.ts"

/** The `ml_utility_config` of an evaluation run (names as on the wire). */
export interface MlUtilityConfig {
  readonly algorithms: ReadonlyArray<Algorithm>
  /** Share of the real rows held out for the hold-out scores, in (0, 1). */
  readonly test_size: number
  /** k of the k-fold cross-validation (≥ 2). */
  readonly cross_validation_folds: number
  /** Seeds every split and every forest: equal inputs and random_state give equal results. */
  readonly random_state: number
  /** The column to predict; inferred when absent or null (see `inferTargetColumn`). */
  readonly target_column?: string | null
}

export const defaultMlUtilityConfig: MlUtilityConfig = { algorithms: knownAlgorithms, test_size: 0.2, cross_validation_folds: 3, random_state: 0 }

export interface MeanStd {
  readonly mean: number | null
  /** Population standard deviation over the folds (ddof 0, numpy's default). */
  readonly std: number | null
}

export interface TrainingComparison<A> {
  /** Train on real, test on real: what the real data itself supports. */
  readonly trtr: A
  /** Train on synthetic, test on real: what the synthetic data teaches about the real. */
  readonly tstr: A
}

export interface AlgorithmUtility {
  readonly algorithm: Algorithm
  /** Scores on the real hold-out rows (`test_size`): TRTR trained on the other real rows, TSTR on all synthetic rows. */
  readonly holdout: TrainingComparison<Scores>
  /**
   * k-fold over the real rows (stratified by class): fold i's real rows are the test set of both; TRTR trains on the
   * other real folds, TSTR on the synthetic rows outside synthetic fold i (same k-fold on the synthetic rows).
   */
  readonly crossValidation: TrainingComparison<Readonly<Partial<Record<MetricName, MeanStd>>>>
  /** Per metric TSTR ÷ TRTR of the cross-validated means (TRTR ÷ TSTR for MAE), so 1 means "as useful as real". */
  readonly utilityRatios: Readonly<Partial<Record<MetricName, number | null>>>
  /** The headline ratio: F1 for classification, R² for regression. */
  readonly utilityRatio: number | null
}

export interface MlUtilityResult {
  readonly targetColumn: string
  readonly task: "classification" | "regression"
  /** Class labels (classification), in code order; class 1 is the positive class of binary F1 and ROC AUC. */
  readonly classes: ReadonlyArray<string> | null
  readonly featureCount: number
  /** Rows with a known target used from each table. */
  readonly realRows: number
  readonly syntheticRows: number
  readonly algorithms: ReadonlyArray<AlgorithmUtility>
}

/** A table's rows that can take part (target known) and its target values. */
export interface UtilityRows {
  readonly table: SynthTable
  readonly target: Int32Array | Float64Array
  readonly rows: Int32Array
}

export interface PreparedUtility {
  readonly target: Target
  readonly layout: FeatureLayout
  readonly real: UtilityRows
  readonly synthetic: UtilityRows
}

const utilityRowsOf = (target: Target, table: SynthTable): UtilityRows => {
  const values = targetOf(target, table)
  return { table, target: values, rows: rowsWithTarget(values) }
}

/** Target, features and usable rows of both tables. */
export const prepareUtility = (real: SynthTable, synthetic: SynthTable, targetColumn: string | null | undefined): PreparedUtility => {
  const target = resolveTarget(real, targetColumn ?? inferTargetColumn(real))
  const layout = planFeatures(real, synthetic, target.column)
  if (layout.features.length === 0) throw new Error(`ML utility needs at least one column besides the target ${JSON.stringify(target.column)}`)
  const prepared = { target, layout, real: utilityRowsOf(target, real), synthetic: utilityRowsOf(target, synthetic) }
  if (prepared.synthetic.rows.length < 2) throw new Error(`the synthetic table has fewer than two rows with a known ${JSON.stringify(target.column)} (labels of the real table)`)
  return prepared
}

const pick = (values: Int32Array | Float64Array, rows: Int32Array) => (values instanceof Int32Array ? Int32Array.from(rows, (row) => values[row]!) : Float64Array.from(rows, (row) => values[row]!))

/**
 * Trains `algorithm` on `trainRows` of one table and scores it on `testRows` of the real table (row numbers of the
 * tables themselves). Missing numbers are imputed with the training rows' medians.
 */
export const trainAndScore = (prepared: PreparedUtility, algorithm: Algorithm, train: UtilityRows, trainRows: Int32Array, testRows: Int32Array, random: Random): Scores => {
  const imputation = fitImputation(prepared.layout, train.table, trainRows)
  const trainMatrix = encodeFeatures(prepared.layout, train.table, trainRows, imputation)
  const predict = fitModel(algorithm, prepared.target.task, trainMatrix, pick(train.target, trainRows), random)
  const testMatrix = encodeFeatures(prepared.layout, prepared.real.table, testRows, imputation)
  return scorePredictions(prepared.target.task, pick(prepared.real.target, testRows), predict(testMatrix))
}

/** A split of positions 0…n−1 of `rows` turned into table row numbers. */
const toTableRows = (rows: Int32Array, positions: Int32Array) => Int32Array.from(positions, (position) => rows[position]!)

const labelsFor = (utilityRows: UtilityRows): Int32Array | null =>
  utilityRows.target instanceof Int32Array ? Int32Array.from(utilityRows.rows, (row) => utilityRows.target[row]!) : null

const meanStd = (values: ReadonlyArray<number | null>): MeanStd => {
  if (values.some((value) => value === null) || values.length === 0) return { mean: null, std: null }
  const numbers = values as ReadonlyArray<number>
  const mean = numbers.reduce((sum, v) => sum + v, 0) / numbers.length
  return { mean, std: Math.sqrt(numbers.reduce((sum, v) => sum + (v - mean) ** 2, 0) / numbers.length) }
}

const summarise = (metrics: ReadonlyArray<MetricName>, folds: ReadonlyArray<Scores>) =>
  Object.fromEntries(metrics.map((metric) => [metric, meanStd(folds.map((scores) => scores[metric] ?? null))]))

const ratioOf = (metric: MetricName, trtr: number | null, tstr: number | null): number | null => {
  if (trtr === null || tstr === null) return null
  const [numerator, denominator] = higherIsBetter(metric) ? [tstr, trtr] : [trtr, tstr]
  return denominator > 0 ? numerator / denominator : null
}

/**
 * ML utility of `synthetic` for `real`: per algorithm, how well models trained on synthetic rows predict real rows
 * (TSTR) next to models trained on real rows (TRTR), on a hold-out split and k-fold cross-validated. Both tables are
 * used whole: sample large tables before calling (the benchmark uses 10,000 rows).
 */
export const mlUtility = (real: SynthTable, synthetic: SynthTable, config: MlUtilityConfig = defaultMlUtilityConfig): MlUtilityResult => {
  const prepared = prepareUtility(real, synthetic, config.target_column)
  const metrics = metricsOf(prepared.target.task)
  // One generator per purpose, forked in a fixed order, so adding an algorithm never changes another's splits or seeds.
  const root = makeRandom(config.random_state)
  const splitRandom = root.fork(), realFoldRandom = root.fork(), syntheticFoldRandom = root.fork()
  const modelSeeds = new Map(knownAlgorithms.map((algorithm) => [algorithm, root.fork()] as const))

  const realRows = prepared.real.rows, syntheticRows = prepared.synthetic.rows
  const holdout: Split = trainTestSplit(realRows.length, config.test_size, labelsFor(prepared.real), splitRandom)
  const realFolds = kFolds(realRows.length, config.cross_validation_folds, labelsFor(prepared.real), realFoldRandom)
  const syntheticFolds = kFolds(syntheticRows.length, config.cross_validation_folds, labelsFor(prepared.synthetic), syntheticFoldRandom)

  const results = [...new Set(config.algorithms)].map((algorithm): AlgorithmUtility => {
    if (!knownAlgorithms.includes(algorithm)) throw new Error(`unknown ML utility algorithm ${JSON.stringify(algorithm)}: use ${knownAlgorithms.join(" or ")}`)
    const random = modelSeeds.get(algorithm)!
    const score = (train: UtilityRows, trainRows: Int32Array, testRows: Int32Array) => trainAndScore(prepared, algorithm, train, trainRows, testRows, random.fork())
    const holdoutTest = toTableRows(realRows, holdout.test)
    const holdoutScores = {
      trtr: score(prepared.real, toTableRows(realRows, holdout.train), holdoutTest),
      tstr: score(prepared.synthetic, syntheticRows, holdoutTest)
    }
    const foldScores = realFolds.map((fold, i) => {
      const test = toTableRows(realRows, fold.test)
      return {
        trtr: score(prepared.real, toTableRows(realRows, fold.train), test),
        tstr: score(prepared.synthetic, toTableRows(syntheticRows, syntheticFolds[i]!.train), test)
      }
    })
    const crossValidation = {
      trtr: summarise(metrics, foldScores.map((fold) => fold.trtr)),
      tstr: summarise(metrics, foldScores.map((fold) => fold.tstr))
    }
    const utilityRatios = Object.fromEntries(metrics.map((metric) => [metric, ratioOf(metric, crossValidation.trtr[metric]!.mean, crossValidation.tstr[metric]!.mean)]))
    const headline: MetricName = prepared.target.task.kind === "classification" ? "f1" : "r2"
    return { algorithm, holdout: holdoutScores, crossValidation, utilityRatios, utilityRatio: utilityRatios[headline] ?? null }
  })

  return {
    targetColumn: prepared.target.column,
    task: prepared.target.task.kind,
    classes: prepared.target.task.kind === "classification" ? prepared.target.task.classes : null,
    featureCount: prepared.layout.features.length,
    realRows: realRows.length,
    syntheticRows: syntheticRows.length,
    algorithms: results
  }
}
