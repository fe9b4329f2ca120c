import { roleLabel } from "../../columns/evaluatedColumns.ts"
import type { AttributeInference, CapSummary } from "../../privacy/attributeInference.ts"
import { type CheckStatus, privacyCheckTitles, type PrivacyCheckName, type ShareVerdict } from "../../privacy/shareVerdict.ts"
import type { ColumnDisclosure } from "../../privacy/valueDisclosure.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { decimal, percent } from "../format.ts"
import { table } from "./layout.ts"

/** A check's title for a table or a banner: its prose name, capitalised; the attribute attack says which it is. */
const checkTitle = (name: PrivacyCheckName): string => {
  const title = privacyCheckTitles[name]
  return title[0]!.toUpperCase() + title.slice(1) + (name === "attribute_inference" ? " (CAP)" : "")
}

const statusWords: Readonly<Record<CheckStatus, string>> = {
  passed: "passed",
  failed: "failed",
  not_applicable: "nothing to check",
  not_run: "could not run"
}

export const statusBadge = (status: CheckStatus): string => `<span class="badge check-${status}">${statusWords[status]}</span>`

/** The verdict in one line: safe to share by every check, or which checks stand in the way. */
export const verdictBanner = (verdict: ShareVerdict): string => {
  if (verdict.safeToShare) {
    return `<div class="verdict verdict-safe"><strong>Safe to share by these checks.</strong> Every privacy check below passed ` +
      `or had nothing to measure; they measure risk and cannot prove that the data is anonymous.</div>`
  }
  const names = (list: ReadonlyArray<PrivacyCheckName>) => list.map(checkTitle).join(", ")
  return `<div class="verdict verdict-unsafe"><strong>Not safe to share.</strong> ` +
    (verdict.failing.length === 0 ? "" : `Failed: ${escapeHtml(names(verdict.failing))}. `) +
    (verdict.notRun.length === 0 ? "" : `Could not run: ${escapeHtml(names(verdict.notRun))}. `) +
    `See the checks and the recommendations.</div>`
}

export const checksTable = (verdict: ShareVerdict): string =>
  table(
    ["Check", "Result", "Rule", "Finding"],
    verdict.checks.map((check) => [
      escapeHtml(checkTitle(check.name)),
      statusBadge(check.status),
      escapeHtml(check.rule),
      escapeHtml(check.finding)
    ])
  )

const count = (share: number | null, values: number) => (share === null ? "—" : `${percent(share)} (${values})`)

export const disclosureTable = (columns: ReadonlyArray<ColumnDisclosure>): string =>
  columns.length === 0
    ? `<p class="muted">No identifier, direct-identifier or quasi-identifier column.</p>`
    : table(
      ["Column", "Role", "Handling", "Output values", "Real values", "Rare real values", "Held-out rows' rare rate", "Result"],
      columns.map((column) => [
        escapeHtml(column.name),
        escapeHtml(roleLabel(column.role)),
        escapeHtml(column.handling),
        column.inOutput ? String(column.values) : "not in the output",
        count(column.realShare, column.realValues),
        count(column.rareShare, column.rareValues),
        column.rule === "rare_values_at_chance" ? percent(column.chanceRareShare) : "—",
        statusBadge(column.passed ? "passed" : "failed")
      ])
    )

/** The attacker's mean belief in the true value over all attacked rows (1 − ZeroCAP protection). */
const meanBelief = (summary: CapSummary | null): number | null =>
  summary === null || summary.zeroCapProtection === null ? null : 1 - summary.zeroCapProtection

export const attributeTable = (attacks: ReadonlyArray<AttributeInference>): string =>
  attacks.length === 0
    ? `<p class="muted">No attack: no quasi-identifier is kept in the output, or no categorical data column is there to guess.</p>`
    : table(
      ["Guessed column", "Known columns", "CAP protection (training rows)", "DisclosureProtection", "Mean belief in the true value: training / held out", "Excess (95 % interval)", "Result"],
      attacks.map((attack) => [
        escapeHtml(attack.sensitive),
        escapeHtml(attack.keys.join(", ")),
        decimal(attack.members.capProtection),
        decimal(attack.members.disclosureProtection),
        `${decimal(meanBelief(attack.members))} / ${decimal(meanBelief(attack.nonMembers))}`,
        attack.excess === null ? "—" : `${decimal(attack.excess.estimate)} (${decimal(attack.excess.low)} to ${decimal(attack.excess.high)})`,
        statusBadge(attack.passed === null ? "not_run" : attack.passed ? "passed" : "failed")
      ])
    )
