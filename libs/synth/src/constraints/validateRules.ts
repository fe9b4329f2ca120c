import type { SynthTable } from "../table.ts"
import { type ColumnFacts, type DatasetFacts, factsOfTable } from "./datasetFacts.ts"
import { parseConditions } from "./parseConditions.ts"
import { parseConstraints, type RuleProblem } from "./parseConstraints.ts"
import { constraintBreaks } from "./rowRules.ts"
import { type Condition, type Constraint, describeConstraint } from "./rules.ts"
import { isNumericType, valueInColumnUnits } from "./values.ts"

/**
 * The one validation of a request's constraints and conditions, pure: the gateway calls it with the facts of the
 * dataset's profile (factsOfProfile) and answers 422 validation_failed with the problems; the generation worker calls
 * it with the table itself (every fact exact, every row checked) before it trains or samples, and refuses the job with
 * them. Problems name their field: `constraints[0].low`, `conditions.age.min`, `constraints[2]` for a constraint the
 * real data breaks (a model cannot learn to obey what its data does not).
 */
export interface GenerationRules {
  readonly constraints: ReadonlyArray<Constraint>
  readonly conditions: ReadonlyArray<Condition>
}

export type RulesValidation =
  | { readonly ok: true; readonly rules: GenerationRules }
  | { readonly ok: false; readonly problems: ReadonlyArray<RuleProblem> }

export const noRules: GenerationRules = { constraints: [], conditions: [] }

const brokenBy = (index: number, constraint: Constraint, what: string): RuleProblem => ({
  field: `constraints[${index}]`,
  message: `constraint ${index} (${describeConstraint(constraint)}) is broken by ${what}: the model cannot learn a rule its data does not hold; correct those rows or leave the constraint out`
})

const rowsOfTheData = (rows: number) => `${rows} row${rows === 1 ? "" : "s"} of the data`

/** What the facts alone show: a bound the data's range passes, a single column's repeated values. */
const breaksInFacts = (constraints: ReadonlyArray<Constraint>, columns: ReadonlyMap<string, ColumnFacts>): Array<RuleProblem> =>
  constraints.flatMap((constraint, index) => {
    if (constraint.type === "unique" && constraint.columns.length === 1) {
      const duplicates = columns.get(constraint.columns[0]!)?.duplicates ?? 0
      return duplicates > 0 ? [brokenBy(index, constraint, rowsOfTheData(duplicates))] : []
    }
    if (constraint.type !== "range" && constraint.type !== "positive") return []
    const facts = columns.get(constraint.column)
    if (facts?.range === null || facts === undefined || !isNumericType(facts.type)) return []
    const bound = (value: number | string | null) => (value === null ? null : valueInColumnUnits(facts.type as "integer", value))
    const [min, max] = constraint.type === "positive" ? [0, null] : [bound(constraint.min), bound(constraint.max)]
    const below = min !== null && (constraint.strict ? facts.range.min <= min : facts.range.min < min)
    const above = max !== null && (constraint.strict ? facts.range.max >= max : facts.range.max > max)
    return below || above ? [brokenBy(index, constraint, `the data, whose values reach ${below ? "below the minimum" : "above the maximum"}`)] : []
  })

/** What the rows show: every constraint's breaking rows, counted. */
const breaksInRows = (constraints: ReadonlyArray<Constraint>, table: SynthTable): Array<RuleProblem> =>
  constraintBreaks(table, constraints).flatMap((rows, index) => (rows === 0 ? [] : [brokenBy(index, constraints[index]!, rowsOfTheData(rows))]))

/**
 * The request's `constraints` and `conditions` fields (absent or null: none), checked against the dataset. With
 * `rows` (the worker) the data's breaks are counted on the rows; without (the gateway) they are what the facts show.
 */
export const validateRules = (
  request: { readonly constraints?: unknown; readonly conditions?: unknown },
  dataset: DatasetFacts,
  rows?: SynthTable
): RulesValidation => {
  const columns = new Map(dataset.columns.map((column) => [column.name, column]))
  const problems: Array<RuleProblem> = []
  const constraints = parseConstraints(request.constraints, columns, problems)
  const conditions = parseConditions(request.conditions, columns, problems)
  if (problems.length > 0) return { ok: false, problems }
  const breaks = rows === undefined ? breaksInFacts(constraints, columns) : breaksInRows(constraints, rows)
  return breaks.length > 0 ? { ok: false, problems: breaks } : { ok: true, rules: { constraints, conditions } }
}

/** The worker's call: every fact from the table, every row checked. */
export const validateRulesOnTable = (request: { readonly constraints?: unknown; readonly conditions?: unknown }, table: SynthTable): RulesValidation =>
  validateRules(request, factsOfTable(table), table)
