import type { AttributeInference } from "./attributeInference.ts"
import { attributeInferenceMaxExcess, attributeInferenceMaxExcessHigh } from "./attributeInference.ts"
import type { ColumnDisclosure } from "./valueDisclosure.ts"
import type { MembershipInference } from "./membershipInference.ts"
import { membershipInferenceMaxAuc, membershipInferenceMaxAucHigh } from "./membershipThresholds.ts"

export type PrivacyCheckName =
  | "identifier_disclosure"
  | "quasi_identifier_disclosure"
  | "attribute_inference"
  | "membership_inference"
  | "exact_copies"

/** Each check's name in prose, as reports, recommendations and answers name it. */
export const privacyCheckTitles: Readonly<Record<PrivacyCheckName, string>> = {
  identifier_disclosure: "identifier disclosure",
  quasi_identifier_disclosure: "quasi-identifier disclosure",
  attribute_inference: "attribute inference",
  membership_inference: "membership inference",
  exact_copies: "exact copies"
}

/**
 * - `passed`: measured and within its rule;
 * - `failed`: measured and outside it;
 * - `not_applicable`: nothing to measure (no such columns): it cannot fail;
 * - `not_run`: it should have been measured but could not be (no column roles, no held-out rows, too few rows), so
 *   nothing is known and the verdict cannot be "safe".
 */
export type CheckStatus = "passed" | "failed" | "not_applicable" | "not_run"

export interface PrivacyCheck {
  readonly name: PrivacyCheckName
  readonly status: CheckStatus
  /** What passing means. */
  readonly rule: string
  /** What was found: figures and column names, never a value of the data. */
  readonly finding: string
  /** The columns behind a failure (all measured ones otherwise). */
  readonly columns: ReadonlyArray<string>
}

export interface ShareVerdict {
  /** True only when every check passed or had nothing to measure. */
  readonly safeToShare: boolean
  readonly failing: ReadonlyArray<PrivacyCheckName>
  readonly notRun: ReadonlyArray<PrivacyCheckName>
  readonly checks: ReadonlyArray<PrivacyCheck>
}

/** Exact copies of training rows next to what held-out rows show (see privacyReport). */
export interface ExactCopyCheckInput {
  readonly rows: number
  readonly share: number
  /** Share of held-out rows equal to a training row; null without held-out rows. */
  readonly holdoutShare: number | null
  readonly passed: boolean
}

export interface VerdictInput {
  /** Null: the generator has no column roles (made before they existed). */
  readonly disclosure: ReadonlyArray<ColumnDisclosure> | null
  readonly attributeInference: ReadonlyArray<AttributeInference> | null
  readonly membershipInference: MembershipInference | null
  readonly exactCopies: ExactCopyCheckInput
  readonly rareThreshold: number | null
}

const percent = (share: number | null) => (share === null ? "no" : `${(share * 100).toFixed(1)} %`)
const figure = (value: number) => value.toFixed(2)
const noRoles = "the generator has no column roles (it was made before they existed): generate again to have this checked"
const noHoldout = "there are no real rows the generator never saw (it held none out, being older or trained on under 20 rows, and no holdout dataset was given)"

const check = (name: PrivacyCheckName, rule: string, status: CheckStatus, finding: string, columns: ReadonlyArray<string> = []): PrivacyCheck =>
  ({ name, status, rule, finding, columns })

const identifierCheck = (disclosure: ReadonlyArray<ColumnDisclosure> | null): PrivacyCheck => {
  const rule = "no output value of an identifier or direct-identifier column equals a real value of that column"
  if (disclosure === null) return check("identifier_disclosure", rule, "not_run", noRoles)
  const columns = disclosure.filter(({ rule: columnRule }) => columnRule === "no_real_values")
  if (columns.length === 0) return check("identifier_disclosure", rule, "not_applicable", "the table has no identifier or direct-identifier column")
  const failing = columns.filter(({ passed }) => !passed)
  if (failing.length === 0) {
    return check("identifier_disclosure", rule, "passed", `no real value in ${columns.map(({ name, inOutput }) => inOutput ? name : `${name} (dropped)`).join(", ")}`, columns.map(({ name }) => name))
  }
  return check(
    "identifier_disclosure",
    rule,
    "failed",
    failing.map(({ name, realShare, realValues, values, handling }) => `${name} (${handling}): ${percent(realShare)} of ${values} output values are real (${realValues})`).join("; "),
    failing.map(({ name }) => name)
  )
}

const quasiIdentifierCheck = (disclosure: ReadonlyArray<ColumnDisclosure> | null, k: number | null): PrivacyCheck => {
  const rule = `no output value of a categorical quasi-identifier is a value fewer than ${k ?? "k"} training rows hold; ` +
    "numeric, date and datetime ones hit such values no more often than real rows the generator never saw (one-sided test at 1 %)"
  if (disclosure === null) return check("quasi_identifier_disclosure", rule, "not_run", noRoles)
  const columns = disclosure.filter(({ rule: columnRule }) => columnRule !== "no_real_values")
  if (columns.length === 0) return check("quasi_identifier_disclosure", rule, "not_applicable", "the table has no quasi-identifier column")
  const describe = ({ name, rareShare, rareValues, values, chanceRareShare, rule: columnRule }: ColumnDisclosure) =>
    `${name}: ${percent(rareShare)} of ${values} output values are rare real values (${rareValues})` +
    (columnRule === "rare_values_at_chance" ? `, held-out rows ${chanceRareShare === null ? "not available" : percent(chanceRareShare)}` : "")
  const failing = columns.filter(({ passed }) => !passed)
  if (failing.length === 0) return check("quasi_identifier_disclosure", rule, "passed", columns.filter(({ inOutput }) => inOutput).map(describe).join("; ") || "every quasi-identifier was dropped", columns.map(({ name }) => name))
  return check("quasi_identifier_disclosure", rule, "failed", failing.map(describe).join("; "), failing.map(({ name }) => name))
}

const attributeCheck = (attacks: ReadonlyArray<AttributeInference> | null): PrivacyCheck => {
  const rule = `the CAP attack (SDMetrics' CategoricalCAP) that knows the kept quasi-identifiers guesses no categorical data column ` +
    `of the training rows more than ${attributeInferenceMaxExcess} better than of real rows the generator never saw ` +
    `(and the 95 % interval rules out ${attributeInferenceMaxExcessHigh})`
  if (attacks === null) return check("attribute_inference", rule, "not_run", noRoles)
  if (attacks.length === 0) {
    return check("attribute_inference", rule, "not_applicable", "no quasi-identifier is kept in the output, or no categorical data column is there to guess")
  }
  const describe = ({ sensitive, excess }: AttributeInference) =>
    excess === null ? `${sensitive}: no excess measured` : `${sensitive}: excess ${figure(excess.estimate)} (95 % interval ${figure(excess.low)} to ${figure(excess.high)})`
  if (attacks.some(({ passed }) => passed === null)) {
    return check("attribute_inference", rule, "not_run", `${noHoldout}, or too few of them`, attacks.map(({ sensitive }) => sensitive))
  }
  const failing = attacks.filter(({ passed }) => passed === false)
  if (failing.length === 0) return check("attribute_inference", rule, "passed", attacks.map(describe).join("; "), attacks.map(({ sensitive }) => sensitive))
  return check("attribute_inference", rule, "failed", failing.map(describe).join("; "), failing.map(({ sensitive }) => sensitive))
}

const membershipCheck = (attack: MembershipInference | null): PrivacyCheck => {
  const rule = `a distance-based membership-inference attack tells training rows from real rows the generator never saw ` +
    `with an AUC of at most ${membershipInferenceMaxAuc}, and the 95 % interval's upper end is at most ${membershipInferenceMaxAucHigh}`
  if (attack === null) return check("membership_inference", rule, "not_run", noHoldout)
  if (attack.interval === null) return check("membership_inference", rule, "not_run", `too few rows to measure it (${attack.members} training, ${attack.nonMembers} held out)`)
  const finding = `AUC ${figure(attack.auc)} (95 % interval ${figure(attack.interval.low)} to ${figure(attack.interval.high)}, ` +
    `${attack.members} training against ${attack.nonMembers} held-out rows)`
  return check("membership_inference", rule, attack.passed ? "passed" : "failed", finding)
}

const copiesCheck = (copies: ExactCopyCheckInput): PrivacyCheck => {
  const rule = "output rows equal a training row (on the learned columns) no more often than real rows the generator never saw do " +
    "(one-sided test at 1 %; without such rows, not at all)"
  const finding = `${percent(copies.share)} of output rows (${copies.rows}) copy a training row` +
    (copies.holdoutShare === null ? "" : `; held-out rows: ${percent(copies.holdoutShare)}`)
  return check("exact_copies", rule, copies.passed ? "passed" : "failed", finding)
}

/**
 * The privacy checks of an evaluation run and the verdict on sharing its output: safe only when every check passed
 * or had nothing to measure. A check that could not run counts against it: "safe" is a claim that needs evidence.
 */
export const shareVerdict = (input: VerdictInput): ShareVerdict => {
  const checks = [
    identifierCheck(input.disclosure),
    quasiIdentifierCheck(input.disclosure, input.rareThreshold),
    attributeCheck(input.attributeInference),
    membershipCheck(input.membershipInference),
    copiesCheck(input.exactCopies)
  ]
  const failing = checks.filter(({ status }) => status === "failed").map(({ name }) => name)
  const notRun = checks.filter(({ status }) => status === "not_run").map(({ name }) => name)
  return { safeToShare: failing.length === 0 && notRun.length === 0, failing, notRun, checks }
}
