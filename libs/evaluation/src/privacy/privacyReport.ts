import { makeRandom, type Random, type SynthTable } from "@synth/synth"
import { qualityLevel, type QualityLevel } from "@synth/stats"
import { evaluatedTables, type GeneratorColumn } from "../columns/evaluatedColumns.ts"
import { type AttributeInference, attributeInference } from "./attributeInference.ts"
import { exceedsChance } from "./chanceExcess.ts"
import { closestRecordDistances } from "./closestRecords.ts"
import { type DcrBaselineProtection, dcrBaselineFromDistances } from "./dcrBaselineProtection.ts"
import { type DcrOverfittingProtection, dcrOverfittingFromDistances } from "./dcrOverfittingProtection.ts"
import { type MembershipInference, membershipInferenceFromDistances } from "./membershipInference.ts"
import { nearestNeighbourRatioFrom } from "./nearestNeighbourRatio.ts"
import { type NewRowSynthesis, newRowSynthesis } from "./newRowSynthesis.ts"
import { randomBaseline } from "./randomBaseline.ts"
import { sampleRows } from "./sampleRows.ts"
import { type ShareVerdict, shareVerdict } from "./shareVerdict.ts"
import { type ColumnDisclosure, valueDisclosure } from "./valueDisclosure.ts"

/** The rare-category threshold k of generators that do not record one (the generation default). */
export const defaultRareThreshold = 5

export interface PrivacyOptions {
  /** Seeds the row samples and the random baseline (default 0). */
  readonly seed?: number
  /** Rows sampled from each table before the quadratic distance metrics (default 10,000). */
  readonly maxRows?: number
  /** NewRowSynthesis' numerical_match_tolerance (default 0.01, SDMetrics'). */
  readonly matchTolerance?: number
  /**
   * The generator's columns with their roles and handlings; absent or null for a generator without roles (then the
   * disclosure and attribute-inference checks cannot run, and every column counts as learned).
   */
  readonly columns?: ReadonlyArray<GeneratorColumn> | null
  /** k: a value fewer than k training rows hold is rare (default 5). */
  readonly rareThreshold?: number
  /** Real rows that are neither the training rows nor the holdout given (e.g. rows held out when a holdout dataset was given instead). */
  readonly otherReal?: ReadonlyArray<SynthTable>
}

export interface ExactCopies {
  /** Share of synthetic rows identical to some training row (on the learned columns). */
  readonly share: number
  readonly rows: number
  /** The same share for the held-out rows: how often real rows the generator never saw equal a training row. */
  readonly holdoutShare: number | null
  /** Not more copies than the held-out rows show (one-sided test at 1 %), or none at all without held-out rows. */
  readonly passed: boolean
}

export interface PrivacyReport {
  readonly dcrBaselineProtection: DcrBaselineProtection
  /** Null without a holdout. */
  readonly dcrOverfittingProtection: DcrOverfittingProtection | null
  /** Near copies: every number within the match tolerance, every category equal. */
  readonly newRowSynthesis: NewRowSynthesis
  /** The match tolerance newRowSynthesis used (relative to the synthetic value). */
  readonly matchTolerance: number
  readonly exactCopies: ExactCopies
  readonly nearestNeighbourRatio: { readonly median: number; readonly mean: number; readonly shareBelowHalf: number }
  /** Null without a holdout. */
  readonly membershipInference: MembershipInference | null
  /** Per identifier, direct-identifier and quasi-identifier column; null without column roles. */
  readonly disclosure: ReadonlyArray<ColumnDisclosure> | null
  /** The CAP attack per categorical data column, keyed by the kept quasi-identifiers; null without column roles. */
  readonly attributeInference: ReadonlyArray<AttributeInference> | null
  /** k of the rare-value checks; null without column roles. */
  readonly rareThreshold: number | null
  /** The checks and whether the output is safe to share by them. */
  readonly verdict: ShareVerdict
  /**
   * Mean of the protection scores that could be computed, each 0 … 1 with 1 best: DCR baseline protection, DCR
   * overfitting protection, new-row synthesis, and the attack's protection min(1, 2·(1 − AUC)). The verdict, not
   * this score, says whether the output may be shared.
   */
  readonly score: number | null
  readonly level: QualityLevel | null
  /** Rows each table was sampled down to. */
  readonly rows: { readonly training: number; readonly synthetic: number; readonly holdout: number | null }
}

/** The attack's AUC as a protection score: 1 up to a coin toss (0.5), 0 for a perfect attack. */
export const attackProtection = (auc: number): number => Math.max(0, Math.min(1, 2 * (1 - auc)))

/** Which CAP attacks apply: keys are the quasi-identifiers kept as they are, targets the categorical data columns kept. */
const capTargets = (columns: ReadonlyArray<GeneratorColumn>, training: SynthTable, synthetic: SynthTable) => {
  const kind = (table: SynthTable, name: string) => table.columns.find((column) => column.name === name)?.kind
  const kept = columns.filter(({ handling, name }) => handling === "keep" && kind(training, name) !== undefined && kind(training, name) === kind(synthetic, name))
  const keys = kept.filter(({ role }) => role === "quasi_identifier").map(({ name }) => name)
  const sensitive = kept.filter(({ role, name }) => role === "data" && kind(training, name) === "categorical").map(({ name }) => name)
  return keys.length === 0 ? [] : sensitive.map((target) => ({ keys, sensitive: target }))
}

/**
 * The privacy part of an evaluation run: the training rows the generator saw, its synthetic rows and, when there is
 * one, a holdout of real rows it did not see. Distances, copies and the attacks use the learned columns (see
 * evaluatedColumns); disclosure looks at every personal column of the whole output. Deterministic for a given seed.
 */
export const privacyReport = (training: SynthTable, synthetic: SynthTable, holdout: SynthTable | null, options: PrivacyOptions = {}): PrivacyReport => {
  const random = makeRandom(options.seed ?? 0)
  const maxRows = options.maxRows ?? 10_000
  const columns = options.columns ?? null
  const learned = evaluatedTables(training, synthetic, columns)
  const learnedHoldout = holdout === null ? null : evaluatedTables(holdout, synthetic, columns).real
  const trainingSample = sampleRows(learned.real, maxRows, random.fork())
  const syntheticSample = sampleRows(learned.synthetic, maxRows, random.fork())
  const holdoutSample = learnedHoldout === null ? null : sampleRows(learnedHoldout, maxRows, random.fork())
  const baseline = randomBaseline(trainingSample, syntheticSample.rowCount, random.fork())

  // Each n × m scan once: the synthetic rows' closest training rows serve three metrics.
  const closest = closestRecordDistances
  const syntheticToTraining = closest(syntheticSample, trainingSample)
  // Against far fewer holdout rows than training rows, a synthetic row finds its closest real row among the training
  // rows by numbers alone (a generator's usual 10 % holdout: about 90 % "closer to training" without any memorising).
  // SDMetrics warns below half; then the training rows are sampled down to the holdout's size for this metric.
  const overfittingTrainingDistances = (distances: Float64Array, draw: Random) =>
    holdoutSample === null || holdoutSample.rowCount * 2 >= trainingSample.rowCount
      ? distances
      : closest(syntheticSample, sampleRows(trainingSample, holdoutSample.rowCount, draw)).nearest
  const baselineProtection = dcrBaselineFromDistances(syntheticToTraining.nearest, closest(baseline, trainingSample).nearest)
  const overfitting = holdoutSample === null || holdoutSample.rowCount === 0
    ? null
    : dcrOverfittingFromDistances(overfittingTrainingDistances(syntheticToTraining.nearest, random.fork()), closest(syntheticSample, holdoutSample).nearest)
  const matchTolerance = options.matchTolerance ?? 0.01
  const newRows = newRowSynthesis(trainingSample, syntheticSample, matchTolerance)
  const copies = newRowSynthesis(trainingSample, syntheticSample, 0)
  const holdoutCopies = holdoutSample === null || holdoutSample.rowCount === 0 ? null : newRowSynthesis(trainingSample, holdoutSample, 0)
  const ratio = nearestNeighbourRatioFrom(syntheticToTraining)
  const attack = holdoutSample === null || holdoutSample.rowCount === 0
    ? null
    : membershipInferenceFromDistances(closest(trainingSample, syntheticSample).nearest, closest(holdoutSample, syntheticSample).nearest)

  const rareThreshold = columns === null ? null : options.rareThreshold ?? defaultRareThreshold
  const disclosure = columns === null
    ? null
    : valueDisclosure({ synthetic, members: training, otherReal: options.otherReal ?? [], nonMembers: holdout, columns, rareThreshold: rareThreshold! })
  const inference = columns === null
    ? null
    : capTargets(columns, trainingSample, syntheticSample).map(({ keys, sensitive }) => attributeInference(trainingSample, holdoutSample, syntheticSample, keys, sensitive))
  const exactCopies: ExactCopies = {
    share: syntheticSample.rowCount === 0 ? 0 : copies.matchedRows / syntheticSample.rowCount,
    rows: copies.matchedRows,
    holdoutShare: holdoutCopies === null ? null : holdoutCopies.matchedRows / holdoutSample!.rowCount,
    passed: !exceedsChance(copies.matchedRows, syntheticSample.rowCount, holdoutCopies?.matchedRows ?? null, holdoutSample?.rowCount ?? null)
  }

  const protections = [baselineProtection.score, overfitting?.score ?? null, newRows.score, attack === null ? null : attackProtection(attack.auc)]
    .filter((value): value is number => value !== null && !Number.isNaN(value))
  const score = protections.length === 0 ? null : protections.reduce((sum, value) => sum + value, 0) / protections.length
  return {
    dcrBaselineProtection: baselineProtection,
    dcrOverfittingProtection: overfitting,
    newRowSynthesis: newRows,
    matchTolerance,
    exactCopies,
    nearestNeighbourRatio: { median: ratio.median, mean: ratio.mean, shareBelowHalf: ratio.shareBelowHalf },
    membershipInference: attack,
    disclosure,
    attributeInference: inference,
    rareThreshold,
    verdict: shareVerdict({ disclosure, attributeInference: inference, membershipInference: attack, exactCopies, rareThreshold }),
    score,
    level: score === null ? null : qualityLevel(score),
    rows: { training: trainingSample.rowCount, synthetic: syntheticSample.rowCount, holdout: holdoutSample?.rowCount ?? null }
  }
}
