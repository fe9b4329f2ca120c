import { makeRandom, type SynthTable } from "@synth/synth"
import { type EvaluatedColumn, evaluatedTables, expectedOutput, type GeneratorColumn } from "./columns/evaluatedColumns.ts"
import { type DiagnosticReport, diagnosticReport } from "./diagnostic/diagnosticReport.ts"
import { tableStructure } from "./diagnostic/tableStructure.ts"
import { splitHoldout } from "./privacy/membership.ts"
import { type PrivacyReport, privacyReport } from "./privacy/privacyReport.ts"
import { sampleRows } from "./privacy/sampleRows.ts"
import { type EvaluationSummary, evaluationSummary } from "./recommendations/evaluationSummary.ts"
import { groupRecommendations, type RecommendationGroup } from "./recommendations/groupRecommendations.ts"
import type { GeneratorKind } from "./recommendations/Recommendation.ts"
import { type ColumnDistribution, columnDistributions } from "./report/columnDistributions.ts"
import { type CorrelationMatrices, correlationMatrices } from "./report/correlationMatrices.ts"
import { type StatisticalReport, statisticalReport } from "./statistical/statisticalReport.ts"
import { mlUtility, type MlUtilityConfig, type MlUtilityResult } from "./utility/mlUtility.ts"

/** What the generator decided about its columns and rows, from its record (absent for generators made before). */
export interface GeneratorPrivacy {
  /** Roles and handlings per column; null when the generator has none. */
  readonly columns: ReadonlyArray<GeneratorColumn> | null
  /** k of its rare-category protection. */
  readonly rareThreshold: number
  /** The real table's rows it held out of training (ascending indices); null when it held none out. */
  readonly heldOutRows: Uint32Array | null
}

export interface EvaluationRunOptions {
  /** Rows sampled from each table before any metric (the spec's evaluation_sample_size). */
  readonly sampleSize: number
  /** Null: no ML utility part. */
  readonly mlUtility: MlUtilityConfig | null
  /** Seeds the row samples and the privacy metrics (the ML utility part has its own random_state). */
  readonly seed: number
  /** The generator that made the synthetic rows, so recommendations can name its settings. */
  readonly generator?: GeneratorKind
  readonly generatorPrivacy?: GeneratorPrivacy
}

/** Why the ML utility part is missing although it was asked for (e.g. no column can be a target). */
export interface SkippedPart {
  readonly skipped: string
}

export interface EvaluationResults {
  /** Rows each part saw after sampling: real are the training rows (the real table less the rows held out). */
  readonly rows: { readonly real: number; readonly synthetic: number; readonly holdout: number | null }
  /** Every column of the generator's plan and what the evaluation did with it; null without roles (all scored). */
  readonly columnTreatments: ReadonlyArray<EvaluatedColumn> | null
  readonly statistical: StatisticalReport
  readonly diagnostic: DiagnosticReport
  /** Null when not asked for. */
  readonly mlUtility: MlUtilityResult | SkippedPart | null
  readonly privacy: PrivacyReport
  /** Overall score (the quality score), level and recommendations of every part that ran, most severe first. */
  readonly summary: EvaluationSummary
  /** The summary's recommendations one per kind of finding, each naming its columns once (the report's list). */
  readonly recommendationGroups: ReadonlyArray<RecommendationGroup>
  /** Per column, the sampled real and synthetic values' binned shares (the report's charts). */
  readonly distributions: ReadonlyArray<ColumnDistribution>
  /** Pearson matrices of the sampled real and synthetic numeric columns. */
  readonly correlations: CorrelationMatrices
}

/** A failure of the ML utility part that is the data's doing (no usable target, too few rows), not a bug. */
const utilityOrSkipped = (real: SynthTable, synthetic: SynthTable, config: MlUtilityConfig): MlUtilityResult | SkippedPart => {
  try {
    return mlUtility(real, synthetic, config)
  } catch (error) {
    if (error instanceof Error && !(error instanceof TypeError) && !(error instanceof RangeError)) return { skipped: error.message }
    throw error
  }
}

/**
 * A full evaluation of synthetic rows against the real ones: statistical, diagnostic, privacy and (when configured)
 * ML utility parts, then the summary. The real rows the generator held out of training (`generatorPrivacy`) are the
 * non-members of the privacy part's attacks and take no part in the rest; `holdout` (real rows it never saw, given
 * with the request) takes their place as non-members when given. Quality, validity and ML utility use the columns
 * the generator learned (see evaluatedColumns). Deterministic for equal inputs and options.
 */
export const evaluationRun = (
  real: SynthTable,
  synthetic: SynthTable,
  holdout: SynthTable | null,
  options: EvaluationRunOptions
): EvaluationResults => {
  const plan = options.generatorPrivacy
  const { members, heldOut } = splitHoldout(real, plan?.heldOutRows ?? null)
  const nonMembers = holdout ?? heldOut
  const tables = evaluatedTables(members, synthetic, plan?.columns)
  if (tables.real.columns.length === 0) {
    throw new Error("every column was faked, hashed or dropped by the generator: nothing it learned can be compared with the real data")
  }
  const random = makeRandom(options.seed)
  const realSample = sampleRows(tables.real, options.sampleSize, random.fork())
  const syntheticSample = sampleRows(tables.synthetic, options.sampleSize, random.fork())
  const statistical = statisticalReport(realSample, syntheticSample)
  const structure = tableStructure(expectedOutput(members, tables), synthetic, tables.replaced)
  const diagnostic = diagnosticReport(realSample, syntheticSample, structure)
  const privacy = privacyReport(members, synthetic, nonMembers, {
    seed: random.integer(2 ** 31),
    maxRows: options.sampleSize,
    columns: plan?.columns ?? null,
    ...(plan === undefined ? {} : { rareThreshold: plan.rareThreshold }),
    otherReal: holdout !== null && heldOut !== null ? [heldOut] : []
  })
  const utility = options.mlUtility === null ? null : utilityOrSkipped(realSample, syntheticSample, options.mlUtility)
  const summary = evaluationSummary({ statistical, diagnostic, privacy, columns: tables.columns }, options.generator)
  return {
    rows: { real: realSample.rowCount, synthetic: syntheticSample.rowCount, holdout: privacy.rows.holdout },
    columnTreatments: tables.columns,
    statistical,
    diagnostic,
    mlUtility: utility,
    privacy,
    summary,
    recommendationGroups: groupRecommendations(summary.recommendations),
    distributions: columnDistributions(realSample, syntheticSample),
    correlations: correlationMatrices(realSample, syntheticSample)
  }
}
