import type { Random } from "../random.ts"
import { learnRounding, type Rounding, roundValue } from "../rounding.ts"
import type { ContinuousColumn } from "../table.ts"
import { componentProbabilities, fitBayesianMixture, type StoredMixture } from "./bayesianMixture.ts"
import { kMeans1d } from "./kMeans1d.ts"

/**
 * Mode-specific normalisation of one numeric, date or datetime column, as CTGAN's (rdt's ClusterBasedNormalizer):
 * a variational Bayesian Gaussian mixture finds the column's modes; a value is encoded as the mode it is drawn into
 * (by its posterior probability, one-hot) and its distance from that mode's mean in units of 4 standard deviations,
 * clipped to ±0.99. Decoding inverts that, then clamps to the column's observed range and rounds as the input was
 * rounded (integers and dates to whole units), so a model's output never leaves what the column could hold.
 * A column with missing values gets a two-wide [present, missing] indicator; missing rows are encoded at the
 * column's mean, as rdt does, so the indicator alone carries them.
 */
export interface ContinuousSpec {
  readonly kind: "continuous"
  readonly name: string
  readonly type: ContinuousColumn["type"]
  readonly sourceFormat: string | null
  readonly min: number
  readonly max: number
  readonly rounding: Rounding
  /** What a missing value is encoded as (the mean of the present values). */
  readonly fill: number
  readonly hasMissing: boolean
  /** The modes kept (mixture weight above the threshold): their weights, means, spreads and E-step constants. */
  readonly modes: {
    readonly weights: ReadonlyArray<number>
    readonly means: ReadonlyArray<number>
    readonly stds: ReadonlyArray<number>
    readonly logWeights: ReadonlyArray<number>
    readonly logScale: ReadonlyArray<number>
  }
}

export interface ContinuousFitOptions {
  readonly maxFitValues: number
  readonly maxModes: number
  readonly weightThreshold: number
}

const STD_MULTIPLIER = 4
const ENCODE_CLIP = 0.99

/** Fits the column's modes on at most `maxFitValues` of its present values, drawn uniformly. */
export const fitContinuousSpec = (column: ContinuousColumn, options: ContinuousFitOptions, random: Random): ContinuousSpec => {
  const present = presentValues(column)
  const sample = boundedSample(present, options.maxFitValues, random)
  let min = Infinity
  let max = -Infinity
  let sum = 0
  for (const value of present) {
    if (value < min) min = value
    if (value > max) max = value
    sum += value
  }
  const fill = present.length === 0 ? 0 : sum / present.length
  return {
    kind: "continuous",
    name: column.name,
    type: column.type,
    sourceFormat: column.sourceFormat,
    min: present.length === 0 ? 0 : min,
    max: present.length === 0 ? 0 : max,
    rounding: learnRounding(column.type, present),
    fill,
    hasMissing: present.length < column.values.length,
    modes: min === max || present.length < 2 ? singleMode(fill) : fitModes(sample, options, random)
  }
}

/** A column with one value (or none) has one mode, at that value; the normalised part is then always 0. */
const singleMode = (value: number): ContinuousSpec["modes"] => ({
  weights: [1],
  means: [value],
  stds: [1],
  logWeights: [0],
  logScale: [0]
})

const fitModes = (sample: Float64Array, options: ContinuousFitOptions, random: Random): ContinuousSpec["modes"] => {
  const components = Math.min(options.maxModes, sample.length)
  const mixture = fitBayesianMixture(sample, kMeans1d(sample, components, random), { components })
  const kept = Array.from(mixture.weights.keys()).filter((k) => mixture.weights[k]! > options.weightThreshold)
  return {
    weights: kept.map((k) => mixture.weights[k]!),
    means: kept.map((k) => mixture.stored.means[k]!),
    stds: kept.map((k) => mixture.stds[k]!),
    logWeights: kept.map((k) => mixture.stored.logWeights[k]!),
    logScale: kept.map((k) => mixture.stored.logScale[k]!)
  }
}

const presentValues = (column: ContinuousColumn): Float64Array => {
  if (column.missing === null) return column.values
  const present = new Float64Array(column.values.length)
  let count = 0
  for (let i = 0; i < column.values.length; i++) if (column.missing[i] !== 1) present[count++] = column.values[i]!
  return present.subarray(0, count)
}

/** At most `limit` of the values, drawn without replacement (a partial Fisher–Yates shuffle of a copy). */
const boundedSample = (values: Float64Array, limit: number, random: Random): Float64Array => {
  if (values.length <= limit) return values
  const pool = Float64Array.from(values)
  for (let i = 0; i < limit; i++) {
    const j = i + random.integer(pool.length - i)
    const swap = pool[i]!
    pool[i] = pool[j]!
    pool[j] = swap
  }
  return pool.subarray(0, limit)
}

/** The encoded width: the normalised value, a slot per mode, and the missing indicator when the column had any. */
export const continuousWidth = (spec: ContinuousSpec): number => 1 + spec.modes.means.length + (spec.hasMissing ? 2 : 0)

/** Encoding and decoding closures over one spec (the E-step constants precomputed once). */
export interface ContinuousCodec {
  readonly encode: (column: ContinuousColumn, row: number, random: Random, into: Float32Array, offset: number) => void
  /** The value a row decodes to, or null for missing. */
  readonly decode: (encoded: Float32Array, offset: number) => number | null
}

export const continuousCodec = (spec: ContinuousSpec): ContinuousCodec => {
  const modes = spec.modes.means.length
  const mixture: StoredMixture = {
    logWeights: Float64Array.from(spec.modes.logWeights),
    logScale: Float64Array.from(spec.modes.logScale),
    means: Float64Array.from(spec.modes.means),
    precision: Float64Array.from(spec.modes.stds, (std) => 1 / std)
  }
  const probabilities = new Float64Array(modes)

  const drawMode = (value: number, random: Random): number => {
    if (modes === 1) return 0
    componentProbabilities(mixture, value, probabilities)
    // rdt adds 1e-6 before normalising, so a value far from every mode still draws one.
    const target = random.next() * (1 + modes * 1e-6)
    let running = 0
    for (let k = 0; k < modes; k++) {
      running += probabilities[k]! + 1e-6
      if (running > target) return k
    }
    return modes - 1
  }

  const encode = (column: ContinuousColumn, row: number, random: Random, into: Float32Array, offset: number) => {
    const isMissing = column.missing !== null && column.missing[row] === 1
    const value = isMissing ? spec.fill : column.values[row]!
    const mode = drawMode(value, random)
    const normalised = (value - mixture.means[mode]!) / (STD_MULTIPLIER * spec.modes.stds[mode]!)
    into[offset] = Math.max(-ENCODE_CLIP, Math.min(ENCODE_CLIP, normalised))
    for (let k = 0; k < modes; k++) into[offset + 1 + k] = k === mode ? 1 : 0
    if (spec.hasMissing) {
      into[offset + 1 + modes] = isMissing ? 0 : 1
      into[offset + 2 + modes] = isMissing ? 1 : 0
    }
  }

  const decode = (encoded: Float32Array, offset: number): number | null => {
    if (spec.hasMissing && encoded[offset + 2 + modes]! > encoded[offset + 1 + modes]!) return null
    const mode = argmax(encoded, offset + 1, modes)
    // A diverged network can emit NaN; the mode's mean is the safest reading of it.
    const raw = encoded[offset]!
    const normalised = Number.isNaN(raw) ? 0 : Math.max(-1, Math.min(1, raw))
    const value = normalised * STD_MULTIPLIER * spec.modes.stds[mode]! + spec.modes.means[mode]!
    return roundValue(spec.rounding, Math.max(spec.min, Math.min(spec.max, value)))
  }

  return { encode, decode }
}

/** The index of the largest of `width` entries from `offset` (the first on a tie). */
export const argmax = (encoded: Float32Array, offset: number, width: number): number => {
  let best = 0
  for (let k = 1; k < width; k++) if (encoded[offset + k]! > encoded[offset + best]!) best = k
  return best
}
