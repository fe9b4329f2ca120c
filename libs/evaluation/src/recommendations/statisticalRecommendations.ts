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
  const distributionAdvice = modelAdvice(generator, "distribution")
  if (column.kind === "continuous" && column.ksComplement !== null && column.ksComplement < SHAPE_WARNING) {
    const shift = column.normalisedWasserstein === null ? "" : `, Wasserstein distance ${percent(column.normalisedWasserstein)} of the real range`
    const detail = `KS complement ${figure(column.ksComplement)}${shift}`
    found.push({
      area: "statistical",
      severity: column.ksComplement < SHAPE_HIGH ? "high" : "medium",
      columns,
      kind: "column_shape",
      detail,
      action: distributionAdvice,
      message: `column ${column.column}: ${detail} — its synthetic distribution differs from the real one; ${distributionAdvice}.`
    })
  }
  if (column.kind === "categorical") {
    if (column.tvComplement !== null && column.tvComplement < SHAPE_WARNING) {
      const gap = column.largestFrequencyGap
      const offBy = gap === null ? "" : ` (most off: "${gap.category}" ${percent(gap.real)} of real rows vs ${percent(gap.synthetic)} of synthetic)`
      const detail = `TV complement ${figure(column.tvComplement)}${offBy}`
      found.push({
        area: "statistical",
        severity: column.tvComplement < SHAPE_HIGH ? "high" : "medium",
        columns,
        kind: "column_shape",
        detail,
        action: distributionAdvice,
        message: `column ${column.column}: ${detail} — category frequencies differ; ${distributionAdvice}.`
      })
    }
    if (column.categoriesNotSynthesised.length > 0) {
      const action = "sample more rows or train longer, or group rare categories before generating"
      found.push({
        area: "statistical",
        severity: "low",
        columns,
        kind: "categories_not_synthesised",
        detail: `${quoted(column.categoriesNotSynthesised)} never synthesised`,
        action,
        message: `column ${column.column}: real categories ${quoted(column.categoriesNotSynthesised)} never appear in the synthetic data — rare categories get lost; ${action}.`
      })
    }
  }
  if (Math.abs(column.realMissingShare - column.syntheticMissingShare) > MISSING_GAP) {
    const detail = `${percent(column.realMissingShare)} missing in the real data but ${percent(column.syntheticMissingShare)} in the synthetic data`
    found.push({
      area: "statistical",
      severity: "medium",
      columns,
      kind: "missing_share",
      detail,
      action: "check how the generator models missing values",
      message: `column ${column.column}: ${detail} — check how the generator models missing values in this column.`
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
  const action = modelAdvice(generator, "relationship")
  return [{
    area: "statistical",
    severity: "medium",
    columns,
    kind: "pair_trend",
    detail: what,
    action,
    message: `columns ${pair.column_1} and ${pair.column_2}: ${what} — the relationship between them is not kept; ${action}.`
  }]
}

/** Recommendations from the per-column statistics and the Quality Report's counted pairs. */
export const statisticalRecommendations = (
  columns: ReadonlyArray<ColumnStatistics>, quality: QualityReport, generator?: GeneratorKind
): ReadonlyArray<Recommendation> => [
  ...columns.flatMap((column) => columnRecommendations(column, generator)),
  ...quality.properties.column_pair_trends.details.flatMap((pair) => pairRecommendation(pair, generator))
]
