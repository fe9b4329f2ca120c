import type { SynthTable } from "@synth/synth"
import { type CapScores, capAttack } from "./categoricalCap.ts"

/** Members' sensitive values may be guessed at most this much better (mean probability) than non-members'. */
export const attributeInferenceMaxExcess = 0.1
/** … and the 95 % interval of that excess must stay below this (too few held-out rows cannot show a small excess). */
export const attributeInferenceMaxExcessHigh = 0.2

const Z_95 = 1.959963984540054

/** A CAP attack's figures on one set of real rows (JSON-ready: null where SDMetrics gives NaN). */
export interface CapSummary {
  readonly rows: number
  /** Rows whose key the output holds. */
  readonly matchedRows: number
  /** SDMetrics' CategoricalCAP (1 − the attacker's mean belief in the true value, over matched rows). */
  readonly capProtection: number | null
  /** SDMetrics' CategoricalZeroCAP (unmatched rows count as a failed attack). */
  readonly zeroCapProtection: number | null
  /** SDMetrics' DisclosureProtection: CAP protection over the protection of guessing uniformly, at most 1. */
  readonly disclosureProtection: number | null
  readonly baselineProtection: number | null
}

export interface AttributeInference {
  /** The attacked column: a categorical data column. */
  readonly sensitive: string
  /** What the attacker knows: the quasi-identifiers kept in the output. */
  readonly keys: ReadonlyArray<string>
  /** The attack on the rows the generator trained on. */
  readonly members: CapSummary
  /** The same attack on real rows it never saw (the same key bins); null without such rows. */
  readonly nonMembers: CapSummary | null
  /**
   * How much better the attack does on members than on non-members: the difference of the mean ZeroCAP beliefs
   * (members − non-members), with a 95 % interval (Welch's normal approximation). What the attack learns about
   * non-members is what the population's statistics teach; the excess is what the generator remembered of its
   * training rows. Null without at least two rows on each side.
   */
  readonly excess: { readonly estimate: number; readonly low: number; readonly high: number } | null
  /** excess ≤ 0.1 with its interval's upper end ≤ 0.2; null when there is no excess to judge. */
  readonly passed: boolean | null
}

const finite = (value: number) => (Number.isFinite(value) ? value : null)

const summary = (scores: CapScores, rows: number): CapSummary => ({
  rows,
  matchedRows: scores.matchedRows,
  capProtection: finite(scores.capProtection),
  zeroCapProtection: finite(scores.zeroCapProtection),
  disclosureProtection: finite(scores.disclosureProtection),
  baselineProtection: finite(scores.baselineProtection)
})

/** Mean and sample variance of the ZeroCAP beliefs (a row whose key the output lacks believes 0). */
const zeroBeliefs = (perRow: Float64Array) => {
  const beliefs = perRow.map((share) => (Number.isNaN(share) ? 0 : share))
  const mean = beliefs.reduce((sum, value) => sum + value, 0) / beliefs.length
  const variance = beliefs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (beliefs.length - 1)
  return { mean, variance, count: beliefs.length }
}

const excessOf = (members: CapScores, nonMembers: CapScores) => {
  if (members.perRow.length < 2 || nonMembers.perRow.length < 2) return null
  const a = zeroBeliefs(members.perRow), b = zeroBeliefs(nonMembers.perRow)
  const estimate = a.mean - b.mean
  const margin = Z_95 * Math.sqrt(a.variance / a.count + b.variance / b.count)
  return { estimate, low: estimate - margin, high: estimate + margin }
}

/**
 * The attribute-inference risk of the quasi-identifiers: per sensitive column, the CAP attack (categoricalCap) on
 * the training rows and on rows the generator never saw, and whether it does clearly better on the former.
 */
export const attributeInference = (
  members: SynthTable,
  nonMembers: SynthTable | null,
  synthetic: SynthTable,
  keys: ReadonlyArray<string>,
  sensitive: string
): AttributeInference => {
  const onMembers = capAttack({ attacked: members, synthetic, keys, sensitive })
  const onNonMembers = nonMembers === null || nonMembers.rowCount === 0
    ? null
    : capAttack({ attacked: nonMembers, synthetic, keys, sensitive, binsFrom: members })
  const excess = onNonMembers === null ? null : excessOf(onMembers, onNonMembers)
  return {
    sensitive,
    keys,
    members: summary(onMembers, members.rowCount),
    nonMembers: onNonMembers === null ? null : summary(onNonMembers, nonMembers!.rowCount),
    excess,
    passed: excess === null ? null : excess.estimate <= attributeInferenceMaxExcess && excess.high <= attributeInferenceMaxExcessHigh
  }
}
