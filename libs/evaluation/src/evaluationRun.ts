import { makeRandom, type SynthTable } from "@synth/synth"
import { type DiagnosticReport, diagnosticReport } from "./diagnostic/diagnosticReport.ts"
import { type PrivacyReport, privacyReport } from "./privacy/privacyReport.ts"
import { sampleRows } from "./privacy/sampleRows.ts"
import { type EvaluationSummary, evaluationSummary } from "./recommendations/evaluationSummary.ts"
import type { GeneratorKind } from "./recommendations/Recommendation.ts"
import { type ColumnDistribution, columnDistributions } from "./report/columnDistributions.ts"
import { type CorrelationMatrices, correlationMatrices } from "./report/correlationMatrices.ts"
import { type StatisticalReport, statisticalReport } from "./statistical/statisticalReport.ts"
import { mlUtility, type MlUtilityConfig, type MlUtilityResult } from "./utility/mlUtility.ts"

export interface EvaluationRunOptions {
  /** Rows sampled from each table before any metric (the spec's evaluation_sample_size). */
  readonly sampleSize: number
  /** Null: no ML utility part. */
  readonly mlUtility: MlUtilityConfig | null
  /** Seeds the row samples and the privacy metrics (the ML utility part has its own random_state). */
  readonly seed: number
  /** The generator that made the synthetic rows, so recommendations can name its settings. */
  readonly generator?: GeneratorKind
}

/** Why the ML utility part is missing although it was asked for (e.g. no column can be a target). */
export interface SkippedPart {
  readonly skipped: string
}

export interface EvaluationResults {
  /** Rows each part saw after sampling. */
  readonly rows: { readonly real: number; readonly synthetic: number; readonly holdout: number | null }
  readonly statistical: StatisticalReport
  readonly diagnostic: DiagnosticReport
  /** Null when not asked for. */
  readonly mlUtility: MlUtilityResult | SkippedPart | null
  readonly privacy: PrivacyReport
  /** Overall score (the quality score), level and recommendations of every part that ran, most severe first. */
  readonly summary: EvaluationSummary
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
 * ML utility parts, then the summary. `holdout` is real rows the generator did not train on (membership inference
 * and DCR overfitting need them; null leaves those two out). Deterministic for equal inputs and options.
 */
export const evaluationRun = (
  real: SynthTable,
  synthetic: SynthTable,
  holdout: SynthTable | null,
  options: EvaluationRunOptions
): EvaluationResults => {
  const random = makeRandom(options.seed)
  const realSample = sampleRows(real, options.sampleSize, random.fork())
  const syntheticSample = sampleRows(synthetic, options.sampleSize, random.fork())
  const holdoutSample = holdout === null ? null : sampleRows(holdout, options.sampleSize, random.fork())
  const statistical = statisticalReport(realSample, syntheticSample)
  const diagnostic = diagnosticReport(realSample, syntheticSample)
  const privacy = privacyReport(realSample, syntheticSample, holdoutSample, { seed: random.integer(2 ** 31), maxRows: options.sampleSize })
  const utility = options.mlUtility === null ? null : utilityOrSkipped(realSample, syntheticSample, options.mlUtility)
  return {
    rows: { real: realSample.rowCount, synthetic: syntheticSample.rowCount, holdout: holdoutSample?.rowCount ?? null },
    statistical,
    diagnostic,
    mlUtility: utility,
    privacy,
    summary: evaluationSummary({ statistical, diagnostic, privacy }, options.generator),
    distributions: columnDistributions(realSample, syntheticSample),
    correlations: correlationMatrices(realSample, syntheticSample)
  }
}
