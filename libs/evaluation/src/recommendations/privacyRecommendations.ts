import { roleLabel } from "../columns/evaluatedColumns.ts"
import type { PrivacyReport } from "../privacy/privacyReport.ts"
import { privacyCheckTitles } from "../privacy/shareVerdict.ts"
import type { ColumnDisclosure } from "../privacy/valueDisclosure.ts"
import { figure, percent, type Recommendation } from "./Recommendation.ts"
import type { RecommendationKind } from "./recommendationKinds.ts"

/** DCR baseline protection below this: synthetic rows sit clearly closer to real ones than chance does. */
const BASELINE_WARNING = 0.5
/** More than this share of synthetic rows closer to the training rows than to the holdout. */
const OVERFITTING_WARNING = 0.6
/** Membership-inference AUC above this. */
const ATTACK_WARNING = 0.6

const advice = "train for fewer epochs or with differential privacy (a target epsilon)"

/** A finding about the table as a whole: its figures, then what to do. */
const tableFinding = (
  kind: RecommendationKind, severity: Recommendation["severity"], detail: string, action: string
): Recommendation => ({ area: "privacy", severity, columns: [], kind, detail, action, message: `${detail} — ${action}.` })

/** A personal column that discloses real values: what it shows and the request setting that stops it. */
const disclosureRecommendation = (column: ColumnDisclosure, k: number): Recommendation => {
  const where = `column ${column.name} (${roleLabel(column.role)}, handling ${column.handling})`
  const columns = [column.name]
  if (column.rule === "no_real_values") {
    const detail = `${percent(column.realShare ?? 0)} of output values (${column.realValues}) are real values of the column`
    return {
      area: "privacy",
      severity: "high",
      columns,
      kind: "real_values_disclosed",
      detail,
      action: "do not share this output; generate again with their handling set to fake (fresh values) or drop (columns.<name>.handling)",
      message: `${where}: ${detail} — do not share this output; generate again with columns.${column.name}.handling set to fake (fresh values) or drop.`
    }
  }
  if (column.rule === "no_rare_values") {
    const detail = `${percent(column.rareShare ?? 0)} of output values (${column.rareValues}) are values fewer than ${k} real rows hold`
    const action = "generate again with rare-category protection on (privacy.rare_category_protection) or a higher privacy.rare_category_threshold, or fake or drop the column"
    return {
      area: "privacy",
      severity: "high",
      columns,
      kind: "rare_values_disclosed",
      detail,
      action,
      message: `${where}: ${detail}, which point to those people — ${action}.`
    }
  }
  const detail = `${percent(column.rareShare ?? 0)} of output values (${column.rareValues}) land on values fewer than ${k} real rows hold, more often than real rows the generator never saw do (${column.chanceRareShare === null ? "none available" : percent(column.chanceRareShare)})`
  return {
    area: "privacy",
    severity: "high",
    columns,
    kind: "rare_values_above_chance",
    detail,
    action: `fake or drop the column, or ${advice}`,
    message: `${where}: ${detail} — it reproduces individual values; fake or drop the column, or ${advice}.`
  }
}

/** The privacy checks' failures and gaps, each with what to change (the verdict's reasons). */
const checkRecommendations = (report: PrivacyReport): ReadonlyArray<Recommendation> => {
  const found: Array<Recommendation> = []
  for (const column of report.disclosure ?? []) if (!column.passed) found.push(disclosureRecommendation(column, report.rareThreshold ?? 5))
  for (const attack of report.attributeInference ?? []) {
    if (attack.passed !== false || attack.excess === null) continue
    const interval = `95 % interval ${figure(attack.excess.low)} to ${figure(attack.excess.high)}; CAP attack`
    found.push({
      area: "privacy",
      severity: "high",
      columns: [...attack.keys, attack.sensitive],
      kind: "attribute_inference",
      detail: `guessed ${figure(attack.excess.estimate)} better for training rows (${interval})`,
      action: `fake or drop quasi-identifiers, or ${advice}`,
      message: `knowing ${attack.keys.join(", ")}, an attacker guesses column ${attack.sensitive} of the training rows ${figure(attack.excess.estimate)} better than of rows the generator never saw (${interval}) — fake or drop quasi-identifiers, or ${advice}.`
    })
  }
  const attack = report.membershipInference
  if (attack !== null && attack.interval !== null && !attack.passed && attack.auc <= ATTACK_WARNING) {
    found.push(tableFinding(
      "membership_undecided",
      "medium",
      `the membership-inference attack's AUC is ${figure(attack.auc)}, but with ${attack.nonMembers} held-out rows its 95 % interval reaches ${figure(attack.interval.high)}: too few to show the attack fails`,
      "generate with a larger privacy.holdout_share, or evaluate with a holdout dataset"
    ))
  }
  const notRun = report.verdict.checks.filter(({ status }) => status === "not_run")
  if (notRun.length > 0) {
    found.push(tableFinding(
      "checks_not_run",
      "medium",
      `the privacy checks ${notRun.map(({ name }) => privacyCheckTitles[name]).join(", ")} could not run (${[...new Set(notRun.map(({ finding }) => finding))].join("; ")})`,
      "do not treat the output as safe to share until they pass"
    ))
  }
  return found
}

/** Recommendations from the privacy metrics: disclosed values, attacks, copies, closeness to the real rows, memorisation. */
export const privacyRecommendations = (report: PrivacyReport): ReadonlyArray<Recommendation> => {
  const found: Array<Recommendation> = [...checkRecommendations(report)]
  if (report.exactCopies.rows > 0) {
    found.push(tableFinding(
      "exact_copies",
      "high",
      `${percent(report.exactCopies.share)} of synthetic rows (${report.exactCopies.rows}) copy a real row exactly`,
      `remove them before sharing, and ${advice}`
    ))
  }
  const nearCopies = report.newRowSynthesis.matchedRows - report.exactCopies.rows
  if (nearCopies > 0) {
    found.push(tableFinding(
      "near_copies",
      "medium",
      `${percent(nearCopies / (report.newRowSynthesis.newRows + report.newRowSynthesis.matchedRows))} of synthetic rows (${nearCopies}) nearly copy a real row (every category equal, every number within ${percent(report.matchTolerance)})`,
      `review or drop them, and ${advice}`
    ))
  }
  const baseline = report.dcrBaselineProtection.score
  // On dense data any faithful generator lands closer to the real rows than uniform random rows do; with a holdout,
  // the overfitting test below is the fairer judge, so the baseline speaks only without one.
  if (baseline !== null && baseline < BASELINE_WARNING && report.dcrOverfittingProtection === null) {
    found.push(tableFinding(
      "close_to_real_rows",
      "medium",
      `synthetic rows lie closer to real rows than random rows do (DCR baseline protection ${figure(baseline)}: median distance ${figure(report.dcrBaselineProtection.medianDcrSynthetic)} vs ${figure(report.dcrBaselineProtection.medianDcrRandom)})`,
      `evaluate with a holdout to tell memorisation from fidelity, and if it is memorisation, ${advice}`
    ))
  }
  const overfitting = report.dcrOverfittingProtection
  if (overfitting !== null && overfitting.closerToTraining > OVERFITTING_WARNING) {
    const detail = `${percent(overfitting.closerToTraining)} of synthetic rows are closer to the training rows than to unseen holdout rows`
    found.push({
      ...tableFinding("memorisation", "high", detail, advice),
      message: `${detail} — the generator memorises its training data; ${advice}.`
    })
  }
  const attack = report.membershipInference
  if (attack !== null && attack.auc > ATTACK_WARNING) {
    found.push(tableFinding(
      "membership_inference",
      attack.auc > 0.75 ? "high" : "medium",
      `a distance-based membership-inference attack tells training rows from holdout rows with AUC ${figure(attack.auc)} (0.5 is chance)`,
      advice
    ))
  }
  return found
}
