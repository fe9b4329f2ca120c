import { privacyCheckTitles as checkTitles, type PrivacyCheckName } from "@synth/evaluation/vocabulary"
import { type Fact, factIndex } from "./evaluationFacts.ts"
import { exampleQuestions, type QuestionClass } from "./questionClass.ts"

/** An answer and the facts it cites by name. */
export interface Answer {
  readonly reply: string
  readonly cited: ReadonlyArray<string>
}

/** Thresholds at which the privacy answer names a figure as a risk (the privacy recommendations' own). */
const riskyBaselineProtection = 0.5
const riskyAttackAuc = 0.6
const riskyCloserToTraining = 0.6

const score = (value: number) => value.toFixed(2)
const percent = (share: number) => `${(share * 100).toFixed(1)} %`

/** Reads facts and remembers which ones an answer used. */
const citing = (facts: ReadonlyArray<Fact>) => {
  const byName = factIndex(facts)
  const cited = new Set<string>()
  const fact = (name: string): Fact | undefined => {
    const found = byName.get(name)
    if (found !== undefined) cited.add(name)
    return found
  }
  const numeric = (name: string): number | undefined => {
    const value = fact(name)?.value
    return typeof value === "number" ? value : undefined
  }
  const numbered = (prefix: string): ReadonlyArray<Fact> =>
    facts.filter((candidate) => candidate.name.startsWith(`${prefix}.`) && /\.\d+$/.test(candidate.name)).map((found) => {
      cited.add(found.name)
      return found
    })
  const answer = (sentences: ReadonlyArray<string | null>): Answer => ({
    reply: sentences.filter((sentence): sentence is string => sentence !== null).join(" "),
    cited: facts.map(({ name }) => name).filter((name) => cited.has(name))
  })
  return { fact, numeric, numbered, answer, has: (name: string) => byName.has(name), names: facts.map(({ name }) => name) }
}

type Facts = ReturnType<typeof citing>

const columnOf = (fact: Fact) => fact.columns?.join(" and ") ?? ""

const overallSentence = (facts: Facts): string => {
  const overall = facts.numeric("overall_score")
  if (overall === undefined) return "No overall quality score could be computed for this evaluation (no column could be compared)."
  const level = facts.fact("quality_level")?.value
  return `The overall quality score is ${score(overall)}${level === undefined ? "" : ` (${level})`} on SDMetrics' Quality Report scale of 0 to 1.`
}

const overallQuality = (facts: Facts): Answer => {
  const shapes = facts.numeric("column_shapes_score")
  const pairs = facts.numeric("column_pair_trends_score")
  const validity = facts.numeric("data_validity_score")
  const privacy = facts.numeric("privacy.score")
  return facts.answer([
    overallSentence(facts),
    shapes === undefined && pairs === undefined
      ? null
      : `It is the mean of the column shapes score${shapes === undefined ? "" : ` (${score(shapes)}, how closely each column's distribution matches)`} and the column pair trends score${pairs === undefined ? "" : ` (${score(pairs)}, how well relationships between columns are kept)`}.`,
    validity === undefined ? null : `Data validity is ${score(validity)} (the share of synthetic values inside the real ranges and categories).`,
    privacy === undefined ? null : `Privacy is reported separately: privacy score ${score(privacy)}${levelOf(facts, "privacy.level")}.`,
    verdictInBrief(facts)
  ])
}

const levelOf = (facts: Facts, name: string) => {
  const level = facts.fact(name)?.value
  return level === undefined ? "" : ` (${level})`
}

const weakestColumns = (facts: Facts): Answer => {
  const columns = facts.numbered("weakest_column")
  const pairs = facts.numbered("weakest_pair")
  const issues = facts.numbered("validity_issue")
  const describe = (fact: Fact) => `${columnOf(fact)} (${fact.metric} ${score(fact.value as number)})`
  return facts.answer([
    columns.length === 0
      ? "No column could be scored, so there is no weakest column."
      : `The weakest columns by shape score are ${columns.map(describe).join(", ")}; scores run from 0 to 1 and higher means the synthetic distribution is closer to the real one.`,
    pairs.length === 0 ? null : `The weakest column pair${pairs.length === 1 ? " is" : "s are"} ${pairs.map(describe).join(", ")}.`,
    issues.length === 0 ? null : `Validity issues: ${issues.map((issue) => `${issue.label.replace(/ \(0 to 1.*\)$/, "")} (score ${score(issue.value as number)})`).join("; ")}.`
  ])
}

const differentialPrivacySentence = (facts: Facts): string => {
  const private_ = facts.fact("generator.differentially_private")?.value
  if (private_ === undefined) return "Whether the generator was trained with differential privacy is not recorded with this evaluation."
  if (private_ !== true) {
    return "The generator was not trained with differential privacy, so there is no formal guarantee that limits what the synthetic rows reveal about any one real person."
  }
  const epsilon = facts.numeric("generator.target_epsilon")
  return `The generator was trained with differential privacy${epsilon === undefined ? "" : ` at ε = ${epsilon}`}, which bounds how much any one real row can influence the synthetic data (a smaller ε bounds it more).`
}

const checkNames = Object.keys(checkTitles) as ReadonlyArray<PrivacyCheckName>

/** The verdict in one sentence for answers about something else; null where there is none (quick, older results). */
const verdictInBrief = (facts: Facts): string | null => {
  const safe = facts.fact("privacy.safe_to_share")?.value
  if (safe === undefined) return null
  if (safe === true) return "By its privacy checks it is safe to share."
  const failing = facts.fact("privacy.failing_checks")?.value
  const notRun = facts.fact("privacy.checks_not_run")?.value
  return "By its privacy checks it is not safe to share" +
    [failing === undefined ? null : `failing: ${failing}`, notRun === undefined ? null : `could not run: ${notRun}`].filter((part) => part !== null).map((part) => ` (${part})`).join("") + "."
}

/**
 * The answer to "may I share it?", first: the verdict of the privacy checks. It says "safe to share" only when the
 * verdict says so; otherwise it names each failing check and each check that could not run, with its finding.
 */
const verdictSentences = (facts: Facts): ReadonlyArray<string> => {
  const safe = facts.fact("privacy.safe_to_share")?.value
  if (safe === undefined) {
    return [
      "These results were stored before the disclosure and attack checks existed, so whether the data is safe to share cannot be said from them; run the evaluation again to have it checked."
    ]
  }
  const checks = checkNames.flatMap((name) => {
    const status = facts.fact(`privacy.check.${name}`)?.value
    return status === undefined ? [] : [{ name, status }]
  })
  const titled = (status: string) => checks.filter((check) => check.status === status).map(({ name }) => name)
  const titles = (names: ReadonlyArray<PrivacyCheckName>) => names.map((name) => checkTitles[name]).join(", ")
  if (safe === true) {
    const passed = titled("passed"), empty = titled("not_applicable")
    return [
      `By the privacy checks it is safe to share: ${passed.length === 0 ? "" : `${titles(passed)} passed`}` +
        `${passed.length > 0 && empty.length > 0 ? ", and " : ""}${empty.length === 0 ? "" : `${titles(empty)} had nothing to measure`}.`
    ]
  }
  const failed = titled("failed"), notRun = titled("not_run")
  if (failed.length > 0) facts.fact("privacy.failing_checks")
  if (notRun.length > 0) facts.fact("privacy.checks_not_run")
  const listed = (names: ReadonlyArray<PrivacyCheckName>) =>
    names.map((name) => `${checkTitles[name]} (${facts.fact(`privacy.check.${name}.finding`)?.value ?? "no finding recorded"})`).join("; ")
  return [
    "No: it is not safe to share." + (failed.length === 0 ? "" : ` ${failed.length === 1 ? "This check fails" : `${failed.length} checks fail`}: ${listed(failed)}.`),
    ...(notRun.length === 0 ? [] : [`${notRun.length === 1 ? "This check could not run" : `${notRun.length} checks could not run`}, so nothing vouches for the data there: ${listed(notRun)}.`])
  ]
}


const attackSentence = (facts: Facts): string => {
  const auc = facts.numeric("privacy.mia_auc")
  if (auc === undefined) return "There were no real rows the generator never saw, so the membership-inference attack was not run."
  const low = facts.numeric("privacy.mia_auc_low"), high = facts.numeric("privacy.mia_auc_high")
  return `A membership-inference attack tells training rows from unseen rows with AUC ${score(auc)}` +
    (low === undefined || high === undefined ? "" : ` (95 % interval ${score(low)} to ${score(high)})`) + " (0.5 is chance)."
}

const privacy = (facts: Facts): Answer => {
  if (!facts.has("privacy.exact_copy_share")) {
    return facts.answer([
      "This is a quick evaluation: it compares statistics only and measures no privacy risk, so it cannot tell whether the data is safe to share.",
      "Run a full evaluation to get the disclosure checks of the personal columns, exact copies, distance to closest record (DCR) and the membership-inference attack.",
      differentialPrivacySentence(facts)
    ])
  }
  const safe = facts.fact("privacy.safe_to_share")?.value === true
  const copyShare = facts.numeric("privacy.exact_copy_share") ?? 0
  const copyRows = facts.numeric("privacy.exact_copy_rows") ?? 0
  const baseline = facts.numeric("privacy.dcr_baseline_protection")
  const newRows = facts.numeric("privacy.new_row_share")
  const nndr = facts.numeric("privacy.nndr_median")
  const auc = facts.numeric("privacy.mia_auc")
  const closerToTraining = facts.numeric("privacy.closer_to_training_share")
  const overfitting = facts.numeric("privacy.dcr_overfitting_protection")
  const privacyScore = facts.numeric("privacy.score")
  const nearCopyShare = facts.numeric("privacy.near_copy_share") ?? 0
  const risks = [
    copyRows > 0 ? `remove the ${copyRows} exact copies` : null,
    nearCopyShare > 0 ? `review or drop the near copies (${percent(nearCopyShare)} of the rows)` : null,
    baseline !== undefined && baseline < riskyBaselineProtection ? "find out why synthetic rows sit closer to real rows than random rows do" : null,
    (auc !== undefined && auc > riskyAttackAuc) || (closerToTraining !== undefined && closerToTraining > riskyCloserToTraining)
      ? "reduce memorisation (fewer epochs, or differential privacy)" : null
  ].filter((risk): risk is string => risk !== null)
  return facts.answer([
    ...verdictSentences(facts),
    "The privacy metrics measure risk and cannot prove that the data is anonymous.",
    `${percent(copyShare)} of the synthetic rows (${copyRows}) are exact copies of a real row.`,
    baseline === undefined
      ? null
      : `DCR baseline protection is ${score(baseline)} (1 means synthetic rows are as far from the real rows as random rows are; low values mean they sit unusually close).`,
    newRows === undefined ? null : `${percent(newRows)} of the synthetic rows are new rather than near copies (NewRowSynthesis).`,
    nndr === undefined ? null : `The median nearest-neighbour distance ratio is ${score(nndr)} (values near 0 mean a synthetic row sits on one particular real row).`,
    closerToTraining === undefined || overfitting === undefined
      ? null
      : `${percent(closerToTraining)} of the synthetic rows are closer to a training row than to any unseen holdout row (about 50 % is expected without memorisation; DCR overfitting protection ${score(overfitting)}).`,
    attackSentence(facts),
    privacyScore === undefined ? null : `Privacy score: ${score(privacyScore)}${levelOf(facts, "privacy.level")}.`,
    differentialPrivacySentence(facts),
    safe && risks.length === 0
      ? "Even so, consider who receives the data and whether rare combinations of values could still point to a person."
      : risks.length === 0
      ? "Follow the recommendations before sharing."
      : `Before sharing: ${risks.join("; ")}. Even then the figures do not guarantee anonymity.`
  ])
}

const mlUtility = (facts: Facts): Answer => {
  const skipped = facts.fact("ml_utility.skipped")?.value
  if (skipped !== undefined) return facts.answer([`The ML utility part did not run: ${skipped}.`])
  const target = facts.fact("ml_utility.target")
  if (target === undefined) {
    return facts.answer([
      "ML utility was not measured in this evaluation (a quick evaluation, or a run without an ML utility configuration).",
      "Run a full evaluation with ML utility to compare models trained on synthetic data with models trained on real data (TSTR vs TRTR)."
    ])
  }
  const metric = facts.fact(`ml_utility.${algorithmsOf(facts)[0]}.ratio`)?.metric ?? "the headline metric"
  const lines = algorithmsOf(facts).map((algorithm) => {
    const trtr = facts.numeric(`ml_utility.${algorithm}.trtr`)
    const tstr = facts.numeric(`ml_utility.${algorithm}.tstr`)
    const ratio = facts.numeric(`ml_utility.${algorithm}.ratio`)
    const scores = trtr === undefined || tstr === undefined ? "" : ` reaches ${metric} ${score(tstr)} trained on synthetic data vs ${score(trtr)} trained on real data`
    return `${algorithm}${scores}${ratio === undefined ? "" : ` (utility ratio ${score(ratio)})`}`
  })
  const ratios = algorithmsOf(facts).map((algorithm) => facts.numeric(`ml_utility.${algorithm}.ratio`)).filter((ratio) => ratio !== undefined)
  const worst = ratios.length === 0 ? undefined : Math.min(...ratios)
  return facts.answer([
    `Models predicting ${target.value}, tested on real rows: ${lines.join("; ")}.`,
    "A utility ratio of 1 means models trained on the synthetic data do as well as models trained on the real data.",
    worst === undefined
      ? null
      : worst >= 0.9
      ? "By these figures the synthetic data is nearly as useful as the real data for training such models."
      : worst >= 0.7
      ? "By these figures the synthetic data is useful for training such models, with some loss of accuracy."
      : "By these figures models trained on the synthetic data do noticeably worse than on real data; validate any model on real data before relying on it."
  ])
}

const algorithmsOf = (facts: Facts): ReadonlyArray<string> =>
  [...new Set(facts.names.map((name) => /^ml_utility\.(.+)\.(ratio|trtr|tstr)$/.exec(name)?.[1]).filter((name) => name !== undefined))]

const improve = (facts: Facts): Answer => {
  const recommendations = facts.numbered("recommendation")
  const weakest = facts.fact("weakest_column.1")
  return facts.answer([
    recommendations.length === 0
      ? "The evaluation made no recommendation."
      : `The evaluation recommends, most important first: ${recommendations
        .map((recommendation, index) => `(${index + 1}) ${recommendation.value}`)
        .join(" ")}`,
    weakest === undefined ? null : `The column to watch after the change is ${columnOf(weakest)} (${weakest.metric} ${score(weakest.value as number)}, the lowest shape score).`
  ])
}

const summary = (facts: Facts): Answer => {
  const weakest = facts.fact("weakest_column.1")
  const privacyScore = facts.numeric("privacy.score")
  return facts.answer([
    overallSentence(facts),
    weakest === undefined ? null : `Its weakest column is ${columnOf(weakest)} (${weakest.metric} ${score(weakest.value as number)}).`,
    privacyScore === undefined ? null : `Its privacy score is ${score(privacyScore)}${levelOf(facts, "privacy.level")}.`,
    verdictInBrief(facts),
    `I can explain the overall quality, the weakest columns, what the privacy metrics say about sharing, ML utility and what to change next; for example: "${exampleQuestions.weakest_columns}" or "${exampleQuestions.privacy}"`
  ])
}

export const offlineAnswer = (facts: ReadonlyArray<Fact>, questionClass: QuestionClass): Answer => {
  const reader = citing(facts)
  switch (questionClass) {
    case "overall_quality":
      return overallQuality(reader)
    case "weakest_columns":
      return weakestColumns(reader)
    case "privacy":
      return privacy(reader)
    case "ml_utility":
      return mlUtility(reader)
    case "improve":
      return improve(reader)
    case "summary":
      return summary(reader)
  }
}
