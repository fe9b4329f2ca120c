import type { ColumnPairDetail, QualityReport } from "@synth/synth"
import type { ColumnStatistics } from "../statistical/columnStatistics.ts"
import { figure, type GeneratorKind, percent, quoted, type Recommendation } from "./Recommendation.ts"

/** Column-shape scores below this are worth fixing, below HIGH unfit (SDMetrics' own report colours at 0.8/0.5). */
const SHAPE_WARNING = 0.85
const SHAPE_HIGH = 0.7
/** Pair-trend scores of counted pairs below this. */
const TREND_WARNING = 0.8
/** Missing shares further apart than this. */
const MISSING_GAP = 0.05

/** What to change in the generator when it misses a distribution or a relationship. */
const modelAdvice = (generator: GeneratorKind | undefined, what: "distribution" | "relationship"): string => {
  switch (generator) {
    case "gaussian_copula":
      return what === "distribution"
        ? "the Gaussian copula's fitted marginal misses it; try ctgan or tvae, which learn multi-modal and skewed columns"
        : "a Gaussian copula carries only linear (rank) dependence; try ctgan or tvae"
    case "ctgan":
    case "tvae":
      return "train for more epochs (or with a larger batch), or try the other neural model"
    case undefined:
      return "train longer (more epochs) or use ctgan or tvae, which learn multi-modal columns and non-linear relationships"
  }
}

const columnRecommendations = (column: ColumnStatistics, generator: GeneratorKind | undefined): Array<Recommendation> => {
  const found: Array<Recommendation> = []
  const columns = [column.column]
  if (column.kind === "continuous" && column.ksComplement !== null && column.ksComplement < SHAPE_WARNING) {
    const shift = column.normalisedWasserstein === null ? "" : `, Wasserstein distance ${percent(column.normalisedWasserstein)} of the real range`
    found.push({
      area: "statistical",
      severity: column.ksComplement < SHAPE_HIGH ? "high" : "medium",
      columns,
      message: `column ${column.column}: KS complement ${figure(column.ksComplement)}${shift} — its synthetic distribution differs from the real one; ${modelAdvice(generator, "distribution")}.`
    })
  }
  if (column.kind === "categorical") {
    if (column.tvComplement !== null && column.tvComplement < SHAPE_WARNING) {
      const gap = column.largestFrequencyGap
      const detail = gap === null ? "" : ` (most off: "${gap.category}" ${percent(gap.real)} of real rows vs ${percent(gap.synthetic)} of synthetic)`
      found.push({
        area: "statistical",
        severity: column.tvComplement < SHAPE_HIGH ? "high" : "medium",
        columns,
        message: `column ${column.column}: TV complement ${figure(column.tvComplement)}${detail} — category frequencies differ; ${modelAdvice(generator, "distribution")}.`
      })
    }
    if (column.categoriesNotSynthesised.length > 0) {
      found.push({
        area: "statistical",
        severity: "low",
        columns,
        message: `column ${column.column}: real categories ${quoted(column.categoriesNotSynthesised)} never appear in the synthetic data — rare categories get lost; sample more rows or train longer, or group rare categories before generating.`
      })
    }
  }
  if (Math.abs(column.realMissingShare - column.syntheticMissingShare) > MISSING_GAP) {
    found.push({
      area: "statistical",
      severity: "medium",
      columns,
      message: `column ${column.column}: ${percent(column.realMissingShare)} missing in the real data but ${percent(column.syntheticMissingShare)} in the synthetic data — check how the generator models missing values in this column.`
    })
  }
  return found
}

const pairRecommendation = (pair: ColumnPairDetail, generator: GeneratorKind | undefined): Array<Recommendation> => {
  if (pair.meets_threshold !== true || pair.score === null || pair.score >= TREND_WARNING) return []
  const columns = [pair.column_1, pair.column_2]
  const what = pair.metric === "CorrelationSimilarity"
    ? `real correlation ${figure(pair.real_correlation ?? NaN)} but synthetic ${figure(pair.synthetic_correlation ?? NaN)}`
    : `their joint frequencies differ (contingency similarity ${figure(pair.score)})`
  return [{
    area: "statistical",
    severity: "medium",
    columns,
    message: `columns ${pair.column_1} and ${pair.column_2}: ${what} — the relationship between them is not kept; ${modelAdvice(generator, "relationship")}.`
  }]
}

/** Recommendations from the per-column statistics and the Quality Report's counted pairs. */
export const statisticalRecommendations = (
  columns: ReadonlyArray<ColumnStatistics>, quality: QualityReport, generator?: GeneratorKind
): ReadonlyArray<Recommendation> => [
  ...columns.flatMap((column) => columnRecommendations(column, generator)),
  ...quality.properties.column_pair_trends.details.flatMap((pair) => pairRecommendation(pair, generator))
]
