import { noiseFloor } from "../privacy/discreteLaplace.ts"
import type { CategoriesRelease, HistogramRelease, QuantileRelease, Release } from "../privacy/ledger.ts"
import { learnRounding, type Rounding } from "../rounding.ts"
import type { ContinuousColumn, SynthTable } from "../table.ts"
import type { CategoricalSpec } from "./categoricalColumn.ts"
import type { ContinuousSpec } from "./continuousColumn.ts"
import type { ColumnSpec } from "./tableTransformer.ts"

/**
 * The table transformer of a differentially private model, built from two things only: the table's schema (public)
 * and the ledger's releases (DP). No function here sees a value of the data, so the transformer, and everything a
 * model stores of it, is post-processing of the releases.
 *
 * - Numbers, dates, datetimes: the range is [lower, upper], the two released quantiles; the modes are DP_MODES
 *   equal-width modes tiling it (a data-independent encoding: no mixture is fitted on the values); missing values get
 *   their indicator when the noisy missing count is one the noise alone reaches at most MISSING_NOISE_PROBABILITY of
 *   the time; a missing value is encoded at the middle of the range.
 * - Strings and booleans: the released labels (a string column's after partition selection, a boolean's both) in
 *   sorted order; the noisy counts rank them for the "other" slot and weigh the conditional sampler; a missing slot as
 *   for numbers. A string column none of whose labels was released becomes a column of missing values.
 *
 * The schema: column names, kinds, types and source formats, and the rounding (decimals of floats, the unit of
 * datetimes), which is part of what the column's type says (as "integer" says the values are whole) and is read
 * from the data as the type is.
 */
export const DP_MODES = 10
/** The quantiles that bound a numeric column. */
export const LOWER_QUANTILE = 0.005
export const UPPER_QUANTILE = 0.995
export const MISSING_NOISE_PROBABILITY = 0.05

export type PublicColumn =
  | {
    readonly kind: "continuous"
    readonly name: string
    readonly type: ContinuousColumn["type"]
    readonly sourceFormat: string | null
    readonly rounding: Rounding
  }
  | { readonly kind: "categorical"; readonly name: string; readonly type: "string" | "boolean" }

export const publicSchemaOf = (table: SynthTable): ReadonlyArray<PublicColumn> =>
  table.columns.map((column): PublicColumn => {
    if (column.kind === "categorical") return { kind: "categorical", name: column.name, type: column.type }
    const present = column.missing === null ? column.values : column.values.filter((_, row) => column.missing![row] !== 1)
    return { kind: "continuous", name: column.name, type: column.type, sourceFormat: column.sourceFormat, rounding: learnRounding(column.type, present) }
  })

export interface PrivateSpecs {
  readonly specs: ReadonlyArray<ColumnSpec>
  /** Per categorical column (in column order), the weight of each slot of its one-hot span: noisy counts. */
  readonly slotWeights: ReadonlyArray<Float64Array>
  /** Per column, the weight of each of its categories (empty for numeric columns): what a redrawn label is drawn by. */
  readonly labelWeights: ReadonlyArray<Float64Array>
}

/** Equal weights and spreads: the E-step's log-weights and log-scales are constants, kept for the codec's formula. */
export const equalWidthModes = (low: number, high: number): ContinuousSpec["modes"] => {
  if (!(high > low)) return { weights: [1], means: [low], stds: [1], logWeights: [0], logScale: [0] }
  const width = (high - low) / DP_MODES
  const modes = Array.from({ length: DP_MODES }, (_, k) => low + (k + 0.5) * width)
  return {
    weights: modes.map(() => 1 / DP_MODES),
    means: modes,
    // Half a mode's width: neighbouring modes overlap, so a value near an edge may be encoded in either.
    stds: modes.map(() => width / 2),
    logWeights: modes.map(() => Math.log(1 / DP_MODES)),
    logScale: modes.map(() => -Math.log(width / 2))
  }
}

const hasSome = (noisyCount: number, epsilon: number) => noisyCount >= noiseFloor(epsilon, MISSING_NOISE_PROBABILITY)

const releaseOf = <T extends Release["_tag"]>(releases: ReadonlyArray<Release>, tag: T, column: string) =>
  releases.filter((release): release is Extract<Release, { _tag: T }> => release._tag === tag && "column" in release && release.column === column)

const continuousSpecOf = (column: Extract<PublicColumn, { kind: "continuous" }>, releases: ReadonlyArray<Release>): ContinuousSpec => {
  const histogram = single(releaseOf(releases, "histogram", column.name), column.name) as HistogramRelease
  const quantiles = releaseOf(releases, "quantile", column.name) as ReadonlyArray<QuantileRelease>
  if (quantiles.length !== 2) throw new RangeError(`column ${column.name}: expected its two quantile releases, found ${quantiles.length}`)
  const low = Math.min(quantiles[0]!.value, quantiles[1]!.value)
  const high = Math.max(quantiles[0]!.value, quantiles[1]!.value)
  return {
    kind: "continuous",
    name: column.name,
    type: column.type,
    sourceFormat: column.sourceFormat,
    min: low,
    max: high,
    rounding: column.rounding,
    fill: (low + high) / 2,
    hasMissing: hasSome(histogram.missing, histogram.epsilon),
    modes: equalWidthModes(low, high)
  }
}

const single = <T>(found: ReadonlyArray<T>, column: string): T => {
  if (found.length !== 1) throw new RangeError(`column ${column}: expected one release, found ${found.length}`)
  return found[0]!
}

const categoricalSpecOf = (
  column: Extract<PublicColumn, { kind: "categorical" }>,
  release: CategoriesRelease,
  maxCategories: number
) => {
  const categories = release.labels
  const weights = Float64Array.from(release.counts, (count) => Math.max(0, count))
  const hasMissing = categories.length === 0 || hasSome(release.missing, release.epsilon)
  const byWeight = Array.from(categories.keys()).sort((a, b) => weights[b]! - weights[a]! || a - b)
  const ownSlots = categories.length <= maxCategories ? byWeight : byWeight.slice(0, Math.max(1, maxCategories - 1))
  const shared = categories.length <= maxCategories ? [] : byWeight.slice(ownSlots.length).sort((a, b) => a - b)
  const slotCategories = [...ownSlots].sort((a, b) => a - b)
  const spec: CategoricalSpec = {
    kind: "categorical",
    name: column.name,
    type: column.type,
    categories,
    slotCategories,
    other: { categories: shared, counts: shared.map((index) => weights[index]!) },
    hasMissing
  }
  const slots = [
    ...slotCategories.map((index) => weights[index]!),
    ...(shared.length > 0 ? [shared.reduce((sum, index) => sum + weights[index]!, 0)] : []),
    ...(hasMissing ? [Math.max(0, release.missing)] : [])
  ]
  // Nothing counted above zero (tiny data, small ε): the conditional sampler draws the slots evenly.
  const slotWeights = slots.some((weight) => weight > 0) ? Float64Array.from(slots) : new Float64Array(slots.length).fill(1)
  return { spec, slotWeights, labelWeights: weights }
}

/** The transformer's specs from the schema and the releases alone (see the file's comment). */
export const privateSpecsOf = (
  schema: ReadonlyArray<PublicColumn>,
  releases: ReadonlyArray<Release>,
  maxCategories: number
): PrivateSpecs => {
  const specs: Array<ColumnSpec> = []
  const slotWeights: Array<Float64Array> = []
  const labelWeights: Array<Float64Array> = []
  for (const column of schema) {
    if (column.kind === "continuous") {
      specs.push(continuousSpecOf(column, releases))
      labelWeights.push(new Float64Array(0))
      continue
    }
    const categorical = categoricalSpecOf(column, single(releaseOf(releases, "categories", column.name), column.name), maxCategories)
    specs.push(categorical.spec)
    slotWeights.push(categorical.slotWeights)
    labelWeights.push(categorical.labelWeights)
  }
  return { specs, slotWeights, labelWeights }
}
