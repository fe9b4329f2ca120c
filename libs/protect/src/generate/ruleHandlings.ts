import type { ColumnHandling, ColumnRole } from "@synth/contracts"
import { type GenerationRules, isNumericType, type RuleProblem, type SynthTable, valueInColumnUnits } from "@synth/synth"
import type { ProtectionPlan } from "./ProtectionPlan.ts"

/**
 * The rules against what the generation does with each column (its handling, from the scan and the request's
 * overrides): a constraint or condition holds between values the model learns, and fresh fake values, pseudonyms or
 * a dropped column carry none. The exception: `unique` on a faked column, whose fresh values are drawn distinct.
 * Problems name the field, as validateRules' do.
 */
interface HandledColumn {
  readonly name: string
  readonly role: ColumnRole
  readonly handling: ColumnHandling
}

const why: Readonly<Record<Exclude<ColumnHandling, "keep">, string>> = {
  fake: "is faked: its fresh values follow no rule of the data",
  hash: "is hashed: its pseudonyms keep no value to compare",
  drop: "is dropped: it is not in the output"
}

const remedy = (name: string) => `set columns.${name}.handling to keep, or leave the rule out`

export const checkRuleHandlings = (rules: GenerationRules, columns: ReadonlyArray<HandledColumn>): Array<RuleProblem> => {
  const byName = new Map(columns.map((column) => [column.name, column]))
  const problems: Array<RuleProblem> = []
  const check = (field: string, name: string, fakeAllowed: boolean) => {
    const column = byName.get(name)
    if (column === undefined || column.handling === "keep" || (fakeAllowed && column.handling === "fake")) return
    problems.push({ field, message: `${name} ${why[column.handling]}; ${remedy(name)}` })
  }
  rules.constraints.forEach((constraint, index) => {
    const field = `constraints[${index}]`
    switch (constraint.type) {
      case "inequality":
        check(`${field}.low`, constraint.low, false)
        check(`${field}.high`, constraint.high, false)
        return
      case "range":
      case "positive":
        check(`${field}.column`, constraint.column, false)
        return
      case "unique":
        constraint.columns.forEach((name, at) => check(`${field}.columns[${at}]`, name, true))
        return
      case "fixed_combinations":
        constraint.columns.forEach((name, at) => {
          check(`${field}.columns[${at}]`, name, false)
          const role = byName.get(name)?.role
          if (byName.get(name)?.handling === "keep" && (role === "identifier" || role === "direct_identifier")) {
            problems.push({ field: `${field}.columns[${at}]`, message: `${name} is an identifier kept as it is: a fixed combination is between categories many rows share` })
          }
        })
    }
  })
  for (const condition of rules.conditions) check(`conditions.${condition.column}`, condition.column, false)
  return problems
}

/**
 * Conditions the protections make impossible, said at once instead of after a spent budget: a category the model
 * never learned (the rare-category protection takes out those held by fewer than k rows), a range beside everything
 * the value protection publishes (the data's extremes are held back). `learned`: the learned table at training, a
 * one-row draw of the stored model later (its columns list the categories it knows).
 */
export const checkProtectedConditions = (
  conditions: GenerationRules["conditions"],
  plan: Pick<ProtectionPlan, "bounds" | "settings">,
  learned: SynthTable | null
): Array<RuleProblem> =>
  conditions.flatMap((condition): Array<RuleProblem> => {
    const field = `conditions.${condition.column}`
    const column = learned?.columns.find((candidate) => candidate.name === condition.column)
    if (column?.kind === "categorical" && column.type === "string" && condition.kind === "equals" && !column.categories.includes(String(condition.value))) {
      const k = plan.settings.rareCategoryThreshold
      return [{ field, message: `${JSON.stringify(condition.value)} is not a value of ${condition.column} the model learned: the rare-category protection keeps values held by fewer than ${k} rows out of every output (with privacy.rare_category_threshold lower, or rare_category_protection off, a new generator can learn it)` }]
    }
    const bound = plan.bounds.find((candidate) => candidate.column === condition.column)
    const type = learned?.columns.find((candidate) => candidate.name === condition.column)?.type
    if (bound === undefined || type === undefined || !isNumericType(type)) return []
    const [min, max] = condition.kind === "equals" ? [condition.value, condition.value] : [condition.min, condition.max]
    const low = typeof min === "boolean" || min === null ? null : valueInColumnUnits(type, min)
    const high = typeof max === "boolean" || max === null ? null : valueInColumnUnits(type, max)
    if ((low === null || low <= bound.high) && (high === null || high >= bound.low)) return []
    return [{ field, message: `the value protection publishes ${condition.column} only within the range at least ${plan.settings.rareCategoryThreshold} rows reach at each end, which the condition lies outside (turn privacy.value_protection off to reach the extremes)` }]
  })
