import type {
  AlgorithmUtility,
  AttributeInference,
  ColumnDisclosure,
  EvaluationResults,
  MlUtilityResult,
  PrivacyCheck,
  QuickEvaluation,
  Recommendation,
  ShareVerdict,
  SkippedPart,
  ValidityDetail
} from "@synth/evaluation"
import { groupRecommendations, privacyCheckTitles } from "@synth/evaluation/vocabulary"
import type { ColumnPairDetail, QualityReport } from "@synth/synth"
import type { EvaluationForChat, GeneratorContext } from "./ChatEvaluation.ts"

/**
 * One figure a chat reply may cite. `name` is stable (replies and `cited_figures` refer to it); `label` says what it
 * is with its metric's name. Only aggregate figures and column names: never a row, never a value of the data (no
 * categories, no real minimum or maximum), so the list can go to an external model.
 */
export interface Fact {
  readonly name: string
  readonly label: string
  readonly value: number | string | boolean
  readonly metric?: string
  readonly columns?: ReadonlyArray<string>
}

const weakestShown = 3
const recommendationsShown = 5
const disclosuresShown = 10

const rounded = (value: number) => Math.round(value * 1000) / 1000

const numberFact = (name: string, label: string, value: number | null | undefined, extra: Partial<Fact> = {}): ReadonlyArray<Fact> =>
  value === null || value === undefined || !Number.isFinite(value) ? [] : [{ name, label, value: rounded(value), ...extra }]

const ascendingScore = <A extends { readonly score: number | null }>(items: ReadonlyArray<A>) =>
  items.filter((item): item is A & { readonly score: number } => item.score !== null).sort((a, b) => a.score - b.score)

const qualityFacts = (quality: QualityReport, overallScore: number | null, level: string | null): ReadonlyArray<Fact> => [
  ...numberFact("overall_score", "overall quality score (SDMetrics Quality Report: mean of column shapes and column pair trends, 0 to 1, higher is better)", overallScore),
  ...(level === null ? [] : [{ name: "quality_level", label: "quality level (Excellent from 0.9, Good from 0.7, Fair from 0.5, else Poor)", value: level }]),
  ...numberFact("column_shapes_score", "column shapes score (mean KSComplement / TVComplement over the columns)", quality.properties.column_shapes.score),
  ...numberFact("column_pair_trends_score", "column pair trends score (mean CorrelationSimilarity / ContingencySimilarity over the pairs)", quality.properties.column_pair_trends.score),
  ...ascendingScore(quality.properties.column_shapes.details).slice(0, weakestShown).map((detail, index) => ({
    name: `weakest_column.${index + 1}`,
    label: `${index === 0 ? "weakest" : `${ordinal(index + 1)} weakest`} column by shape score: ${detail.metric} of column ${detail.column} (0 to 1, higher is closer)`,
    value: rounded(detail.score),
    metric: detail.metric,
    columns: [detail.column]
  }))
]

const ordinal = (position: number) => (position === 2 ? "2nd" : position === 3 ? "3rd" : `${position}th`)

/** The pairs the quality score counts, weakest first. */
const pairFacts = (pairs: ReadonlyArray<ColumnPairDetail>): ReadonlyArray<Fact> =>
  ascendingScore(pairs.filter((pair) => pair.meets_threshold === true)).slice(0, weakestShown).map((pair, index) => ({
    name: `weakest_pair.${index + 1}`,
    label: `${index === 0 ? "weakest" : `${ordinal(index + 1)} weakest`} column pair: ${pair.metric} of ${pair.column_1} and ${pair.column_2} (0 to 1, higher is closer)`,
    value: rounded(pair.score),
    metric: pair.metric,
    columns: [pair.column_1, pair.column_2]
  }))

const validityProblem = (detail: ValidityDetail) =>
  detail.metric === "BoundaryAdherence"
    ? `${detail.outside} synthetic values outside the real range`
    : `${detail.invalid} synthetic values that are not real categories`

const validityFacts = (details: ReadonlyArray<ValidityDetail>, score: number | null): ReadonlyArray<Fact> => [
  ...numberFact("data_validity_score", "data validity score (mean BoundaryAdherence / CategoryAdherence, 0 to 1, 1 = every value valid)", score),
  ...ascendingScore(details).filter((detail) => detail.score < 1).slice(0, weakestShown).map((detail, index) => ({
    name: `validity_issue.${index + 1}`,
    label: `${detail.metric} of column ${detail.column}: ${validityProblem(detail)} (0 to 1, 1 = every value valid)`,
    value: rounded(detail.score),
    metric: detail.metric,
    columns: [detail.column]
  }))
]

const headlineMetric = (utility: MlUtilityResult) => (utility.task === "classification" ? "f1" : "r2")

const algorithmFacts = (utility: MlUtilityResult, algorithm: AlgorithmUtility): ReadonlyArray<Fact> => {
  const metric = headlineMetric(utility)
  const cv = algorithm.crossValidation
  return [
    ...numberFact(`ml_utility.${algorithm.algorithm}.ratio`, `ML utility ratio of ${algorithm.algorithm} (TSTR ÷ TRTR ${metric}, cross-validated; 1 = as useful as the real data)`, algorithm.utilityRatio, { metric }),
    ...numberFact(`ml_utility.${algorithm.algorithm}.trtr`, `${metric} of ${algorithm.algorithm} trained on real, tested on real (TRTR)`, cv.trtr[metric]?.mean, { metric }),
    ...numberFact(`ml_utility.${algorithm.algorithm}.tstr`, `${metric} of ${algorithm.algorithm} trained on synthetic, tested on real (TSTR)`, cv.tstr[metric]?.mean, { metric })
  ]
}

const mlUtilityFacts = (utility: MlUtilityResult | SkippedPart | null): ReadonlyArray<Fact> => {
  if (utility === null) return []
  if ("skipped" in utility) return [{ name: "ml_utility.skipped", label: "why the ML utility part did not run", value: utility.skipped }]
  return [
    { name: "ml_utility.target", label: `the column the ML utility models predict (${utility.task})`, value: utility.targetColumn, columns: [utility.targetColumn] },
    ...utility.algorithms.flatMap((algorithm) => algorithmFacts(utility, algorithm))
  ]
}

const nearCopyShare = (privacy: EvaluationResults["privacy"]) => {
  const { matchedRows, newRows } = privacy.newRowSynthesis
  return matchedRows + newRows === 0 ? null : Math.max(0, matchedRows - privacy.exactCopies.rows) / (matchedRows + newRows)
}

const privacyFacts = (privacy: EvaluationResults["privacy"]): ReadonlyArray<Fact> => [
  ...numberFact("privacy.score", "privacy score (mean of the protection scores, 0 to 1, higher protects more)", privacy.score),
  ...(privacy.level === null ? [] : [{ name: "privacy.level", label: "privacy level (bands of the privacy score)", value: privacy.level }]),
  ...numberFact("privacy.dcr_baseline_protection", "DCR baseline protection (synthetic rows' distance to the closest real row vs random rows', 0 to 1, 1 = as far as random)", privacy.dcrBaselineProtection.score, { metric: "DCRBaselineProtection" }),
  ...numberFact("privacy.dcr_overfitting_protection", "DCR overfitting protection (synthetic rows closer to training than to holdout rows, 0 to 1, 1 = no memorisation)", privacy.dcrOverfittingProtection?.score, { metric: "DCROverfittingProtection" }),
  ...numberFact("privacy.closer_to_training_share", "share of synthetic rows closer to a training row than to any holdout row (about 0.5 without memorisation)", privacy.dcrOverfittingProtection?.closerToTraining),
  ...numberFact("privacy.exact_copy_share", "share of synthetic rows that copy a real row exactly", privacy.exactCopies.share),
  ...numberFact("privacy.exact_copy_rows", "synthetic rows that copy a real row exactly", privacy.exactCopies.rows),
  ...numberFact("privacy.near_copy_share", "share of synthetic rows that nearly copy a real row without copying it exactly (every category equal, every number within the match tolerance)", nearCopyShare(privacy)),
  ...numberFact("privacy.new_row_share", "share of synthetic rows that are new, not near copies of a real row (NewRowSynthesis)", privacy.newRowSynthesis.score, { metric: "NewRowSynthesis" }),
  ...numberFact("privacy.nndr_median", "median nearest-neighbour distance ratio (closest ÷ 2nd-closest real row; near 0 = a row sits on one real row)", privacy.nearestNeighbourRatio.median, { metric: "NNDR" }),
  ...numberFact("privacy.mia_auc", "membership-inference attack AUC (0.5 = chance, 1 = the attack tells training rows apart perfectly)", privacy.membershipInference?.auc, { metric: "MembershipInferenceAUC" }),
  ...numberFact("privacy.mia_auc_low", "lower end of the membership-inference AUC's 95 % interval (DeLong)", privacy.membershipInference?.interval?.low, { metric: "MembershipInferenceAUC" }),
  ...numberFact("privacy.mia_auc_high", "upper end of the membership-inference AUC's 95 % interval (DeLong)", privacy.membershipInference?.interval?.high, { metric: "MembershipInferenceAUC" }),
  ...checkFacts(privacy)
]

/** Results stored before the privacy checks existed have no verdict, disclosure or attack figures. */
const verdictOf = (privacy: EvaluationResults["privacy"]): ShareVerdict | null =>
  (privacy as Partial<EvaluationResults["privacy"]>).verdict ?? null

const disclosureFacts = (columns: ReadonlyArray<ColumnDisclosure>): ReadonlyArray<Fact> =>
  [...columns.filter(({ passed }) => !passed), ...columns.filter(({ passed }) => passed)]
    .filter(({ inOutput }) => inOutput)
    .slice(0, disclosuresShown)
    .flatMap((column, index) => {
      const where = `column ${column.name} (${column.role.replace(/_/g, " ")}, handling ${column.handling})`
      return [
        ...numberFact(`privacy.disclosure.${index + 1}`, `share of the output values of ${where} that are real values of the column${column.passed ? "" : " (fails its check)"}`, column.realShare, { columns: [column.name] }),
        ...(column.rule === "no_real_values"
          ? []
          : numberFact(`privacy.rare_disclosure.${index + 1}`, `share of the output values of ${where} that are values fewer than k training rows hold`, column.rareShare, { columns: [column.name] }))
      ]
    })

const inferenceFacts = (attacks: ReadonlyArray<AttributeInference>): ReadonlyArray<Fact> =>
  attacks.slice(0, disclosuresShown).flatMap((attack, index) =>
    numberFact(
      `privacy.attribute_inference.${index + 1}`,
      `how much better the CAP attack, knowing ${attack.keys.join(", ")}, guesses column ${attack.sensitive} of training rows than of rows the generator never saw` +
        (attack.excess === null ? "" : ` (95 % interval ${rounded(attack.excess.low)} to ${rounded(attack.excess.high)})`) +
        (attack.passed === false ? " (fails its check)" : ""),
      attack.excess?.estimate,
      { metric: "CategoricalCAP", columns: [...attack.keys, attack.sensitive] }
    ))

/**
 * The verdict and each check's status: what "is it safe to share?" is answered from. Absent for results stored
 * before the checks existed, so no answer can call those safe.
 */
const checkFacts = (privacy: EvaluationResults["privacy"]): ReadonlyArray<Fact> => {
  const verdict = verdictOf(privacy)
  if (verdict === null) return []
  const titles = (names: ReadonlyArray<PrivacyCheck["name"]>) => names.map((name) => privacyCheckTitles[name]).join(", ")
  return [
    { name: "privacy.safe_to_share", label: "whether the output is safe to share by the privacy checks (true only when every check passed or had nothing to measure)", value: verdict.safeToShare },
    ...(verdict.failing.length === 0 ? [] : [{ name: "privacy.failing_checks", label: "the privacy checks that failed", value: titles(verdict.failing) }]),
    ...(verdict.notRun.length === 0 ? [] : [{ name: "privacy.checks_not_run", label: "the privacy checks that could not run", value: titles(verdict.notRun) }]),
    ...verdict.checks.flatMap((check): ReadonlyArray<Fact> => [
      {
        name: `privacy.check.${check.name}`,
        label: `result of the ${privacyCheckTitles[check.name]} check (passed, failed, not_applicable: nothing to measure, not_run: could not run); it passes when ${check.rule}`,
        value: check.status,
        ...(check.columns.length === 0 ? {} : { columns: check.columns })
      },
      { name: `privacy.check.${check.name}.finding`, label: `what the ${privacyCheckTitles[check.name]} check found`, value: check.finding }
    ]),
    ...disclosureFacts(privacy.disclosure ?? []),
    ...inferenceFacts(privacy.attributeInference ?? [])
  ]
}

const generatorFacts = (generator: GeneratorContext | undefined): ReadonlyArray<Fact> =>
  generator === undefined
    ? []
    : [
      { name: "generator.type", label: "the generator that made the synthetic rows", value: generator.type },
      { name: "generator.differentially_private", label: "whether the generator was trained with differential privacy", value: generator.differentiallyPrivate },
      ...numberFact("generator.target_epsilon", "the generator's differential-privacy budget ε (lower is more private)", generator.targetEpsilon)
    ]

/**
 * A recommendation's message without the data values some quote: categories (in double quotes) become "…" and real
 * ranges ([min, max]) are dropped; the figures, column names and the action stay.
 */
export const withoutDataValues = (message: string) => message.replace(/ \[[^\]]*\]/g, "").replace(/"[^"]*"/g, '"…"')

/**
 * The recommendations grouped by kind, as the report shows them: a finding on 31 columns is one fact naming them, not
 * five near-identical facts about the first five.
 */
const recommendationFacts = (recommendations: ReadonlyArray<Recommendation>): ReadonlyArray<Fact> =>
  groupRecommendations(recommendations).slice(0, recommendationsShown).map((recommendation, index) => ({
    name: `recommendation.${index + 1}`,
    label: `recommendation ${index + 1} (${recommendation.severity} severity, ${recommendation.area}${recommendation.columns.length === 0 ? "" : `, columns ${recommendation.columns.join(", ")}`})`,
    value: withoutDataValues(recommendation.message),
    columns: recommendation.columns
  }))

const quickFacts = (results: QuickEvaluation): ReadonlyArray<Fact> => [
  ...qualityFacts(results.quality, results.overallScore, results.qualityLevel),
  ...pairFacts(results.quality.properties.column_pair_trends.details),
  ...validityFacts(results.diagnostic.properties.dataValidity.details, results.diagnostic.properties.dataValidity.score),
  ...recommendationFacts(results.recommendationDetails)
]

const fullFacts = (results: EvaluationResults): ReadonlyArray<Fact> => [
  ...qualityFacts(results.statistical.quality, results.summary.overallScore, results.summary.qualityLevel),
  ...pairFacts(results.statistical.quality.properties.column_pair_trends.details),
  ...validityFacts(results.diagnostic.properties.dataValidity.details, results.diagnostic.properties.dataValidity.score),
  ...mlUtilityFacts(results.mlUtility),
  ...privacyFacts(results.privacy),
  ...recommendationFacts(results.summary.recommendations)
]

/**
 * The figures a chat reply may cite, in a stable order: quality, weakest columns and pairs, validity issues, ML
 * utility and privacy (full runs only), the generator when known, and the recommendations.
 */
export const evaluationFacts = (evaluation: EvaluationForChat): ReadonlyArray<Fact> => {
  const facts = evaluation.kind === "quick" ? quickFacts(evaluation.results) : fullFacts(evaluation.results)
  const recommendations = facts.filter((fact) => fact.name.startsWith("recommendation."))
  return [...facts.filter((fact) => !fact.name.startsWith("recommendation.")), ...generatorFacts(evaluation.generator), ...recommendations]
}

/** The facts by name, for answers that look figures up. */
export const factIndex = (facts: ReadonlyArray<Fact>): ReadonlyMap<string, Fact> => new Map(facts.map((fact) => [fact.name, fact]))
