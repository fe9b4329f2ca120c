import type { SynthTable } from "@synth/synth"
import type { GeneratorColumn } from "../columns/evaluatedColumns.ts"
import { exceedsChance } from "./chanceExcess.ts"
import { valueKeys } from "./valueKeys.ts"

/**
 * How a personal column passes:
 * - `no_real_values` (identifiers, direct identifiers): no output value equals a real value of the column;
 * - `no_rare_values` (quasi-identifiers with categories): no output value equals a value fewer than k training rows
 *   hold (a big city is fine, a one-row village names its person);
 * - `rare_values_at_chance` (numeric, date and datetime quasi-identifiers): output values equal rare training values
 *   no more often than real rows the generator never saw do (a birth date lands on someone's by chance at the rate
 *   the population itself does; more than that is memorisation).
 */
export type DisclosureRule = "no_real_values" | "no_rare_values" | "rare_values_at_chance"

export interface ColumnDisclosure extends GeneratorColumn {
  readonly rule: DisclosureRule
  /** False when the output has no such column (dropped): nothing to disclose. */
  readonly inOutput: boolean
  /** Non-missing output values measured. */
  readonly values: number
  /** Output values equal to a value of the column in some real row (training or held out). */
  readonly realValues: number
  /** realValues / values; null without values. */
  readonly realShare: number | null
  /** Output values equal to a value that 1 to k − 1 training rows hold. */
  readonly rareValues: number
  readonly rareShare: number | null
  /**
   * `rare_values_at_chance` only: the share of the held-out rows' values equal to a value 1 to k − 1 training rows
   * hold (what chance gives); null without held-out rows (then any rare value fails).
   */
  readonly chanceRareShare: number | null
  readonly passed: boolean
}

export interface DisclosureInput {
  /** The output rows. */
  readonly synthetic: SynthTable
  /** The rows the generator trained on. */
  readonly members: SynthTable
  /** Real rows neither members nor non-members (held out at training when a holdout dataset was given instead). */
  readonly otherReal: ReadonlyArray<SynthTable>
  /** Real rows it never saw (its holdout, or a holdout dataset); null without any. */
  readonly nonMembers: SynthTable | null
  /** The generator's columns; data columns are not measured. */
  readonly columns: ReadonlyArray<GeneratorColumn>
  /** k: a value fewer than k training rows hold is rare (the generator's rare-category threshold). */
  readonly rareThreshold: number
}

const countsOf = (keys: ReadonlyArray<string | null>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const key of keys) if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1)
  return counts
}

const columnKeys = (table: SynthTable | null, name: string): ReadonlyArray<string | null> | null => {
  const column = table?.columns.find((candidate) => candidate.name === name)
  return column === undefined ? null : valueKeys(column)
}

/** Present keys, and how many of them `matches` accepts. */
const tally = (keys: ReadonlyArray<string | null>, matches: (key: string) => boolean) => {
  let present = 0, hits = 0
  for (const key of keys) {
    if (key === null) continue
    present++
    if (matches(key)) hits++
  }
  return { present, hits }
}

const ruleOf = (column: GeneratorColumn, members: SynthTable): DisclosureRule => {
  if (column.role !== "quasi_identifier") return "no_real_values"
  return members.columns.find(({ name }) => name === column.name)?.kind === "continuous" ? "rare_values_at_chance" : "no_rare_values"
}

/**
 * Per personal column (identifier, direct identifier, quasi-identifier), how many output values are real values
 * of the column and how many are rare real values: what row-level distances cannot see, since a row with a copied
 * e-mail and invented everything else is far from every real row. Values compare as valueKeys writes them.
 * Every output row is measured (a hash lookup each), not a sample.
 */
export const valueDisclosure = (input: DisclosureInput): ReadonlyArray<ColumnDisclosure> =>
  input.columns.filter(({ role }) => role !== "data").map((column): ColumnDisclosure => {
    const rule = ruleOf(column, input.members)
    const output = columnKeys(input.synthetic, column.name)
    const memberKeys = columnKeys(input.members, column.name) ?? []
    const nonMemberKeys = columnKeys(input.nonMembers, column.name)
    const memberCounts = countsOf(memberKeys)
    const otherRealKeys = new Set([...(nonMemberKeys ?? []), ...input.otherReal.flatMap((table) => columnKeys(table, column.name) ?? [])])
    const isRare = (key: string) => {
      const count = memberCounts.get(key) ?? 0
      return count > 0 && count < input.rareThreshold
    }
    const isReal = (key: string) => memberCounts.has(key) || otherRealKeys.has(key)
    const chance = rule === "rare_values_at_chance" && nonMemberKeys !== null ? tally(nonMemberKeys, isRare) : null
    if (output === null) {
      return { ...column, rule, inOutput: false, values: 0, realValues: 0, realShare: null, rareValues: 0, rareShare: null, chanceRareShare: chance === null || chance.present === 0 ? null : chance.hits / chance.present, passed: true }
    }
    const real = tally(output, isReal)
    const rare = tally(output, isRare)
    const passed = rule === "no_real_values"
      ? real.hits === 0
      : rule === "no_rare_values"
      ? rare.hits === 0
      : !exceedsChance(rare.hits, rare.present, chance?.hits ?? null, chance?.present ?? null)
    return {
      ...column,
      rule,
      inOutput: true,
      values: real.present,
      realValues: real.hits,
      realShare: real.present === 0 ? null : real.hits / real.present,
      rareValues: rare.hits,
      rareShare: rare.present === 0 ? null : rare.hits / rare.present,
      chanceRareShare: chance === null || chance.present === 0 ? null : chance.hits / chance.present,
      passed
    }
  })
