import type { SynthColumn, SynthTable } from "../table.ts"
import { type Condition, type Constraint, describeCondition, describeConstraint } from "./rules.ts"
import { booleanOf, isNumericType, valueInColumnUnits } from "./values.ts"

/**
 * Row by row: whether a table's rows obey the constraints and meet the conditions. The one definition of "obeys"
 * the service has: the check of the real data before training, the rejection of sampled rows and the tests.
 * Fixed combinations are not checked here: the model only ever draws combinations of the data (the joint category
 * of jointCategoryTransform), and no later step changes a categorical value.
 */
type RowTest = (row: number) => boolean

const lookup = (table: SynthTable) => {
  const byName = new Map(table.columns.map((column) => [column.name, column]))
  return (name: string): SynthColumn | undefined => byName.get(name)
}

/** A number column's value in a row, null where missing (and for a categorical column, which no number rule reads). */
const numberAt = (column: SynthColumn) => (row: number): number | null =>
  column.kind === "continuous" && column.missing?.[row] !== 1 ? column.values[row]! : null

const inBounds = (min: number | null, max: number | null, strict: boolean) => (value: number) =>
  strict
    ? (min === null || value > min) && (max === null || value < max)
    : (min === null || value >= min) && (max === null || value <= max)

const boundOf = (column: SynthColumn, bound: number | string | null): number | null =>
  bound === null || !isNumericType(column.type) ? null : valueInColumnUnits(column.type, bound)

/** Values missing in any of the columns: the row is not compared (SQL's UNIQUE), so its key is null. */
export const uniqueKeyOf = (columns: ReadonlyArray<SynthColumn>) => (row: number): string | null => {
  const parts: Array<string | number> = []
  for (const column of columns) {
    if (column.kind === "categorical") {
      const code = column.codes[row]!
      if (code < 0) return null
      parts.push(column.categories[code]!)
    } else {
      if (column.missing?.[row] === 1) return null
      parts.push(column.values[row]!)
    }
  }
  return JSON.stringify(parts)
}

/**
 * A row test for a constraint other than `unique`; null when the table lacks one of its columns (a faked column's
 * constraint is checked once the fakes are drawn) or for fixed combinations (met by construction).
 */
export const constraintTest = (constraint: Constraint, table: SynthTable): RowTest | null => {
  const column = lookup(table)
  switch (constraint.type) {
    case "inequality": {
      const low = column(constraint.low)
      const high = column(constraint.high)
      if (low === undefined || high === undefined) return null
      const lowAt = numberAt(low)
      const highAt = numberAt(high)
      return (row) => {
        const lowValue = lowAt(row)
        const highValue = highAt(row)
        return lowValue === null || highValue === null || (constraint.strict ? lowValue < highValue : lowValue <= highValue)
      }
    }
    case "range":
    case "positive": {
      const source = column(constraint.column)
      if (source === undefined) return null
      const valueAt = numberAt(source)
      const holds = constraint.type === "positive"
        ? inBounds(0, null, constraint.strict)
        : inBounds(boundOf(source, constraint.min), boundOf(source, constraint.max), constraint.strict)
      return (row) => {
        const value = valueAt(row)
        return value === null || holds(value)
      }
    }
    case "fixed_combinations":
    case "unique":
      return null
  }
}

/** A row test for a condition; null when the table lacks its column. A missing value never meets a condition. */
export const conditionTest = (condition: Condition, table: SynthTable): RowTest | null => {
  const source = lookup(table)(condition.column)
  if (source === undefined) return null
  if (source.kind === "categorical") {
    if (condition.kind !== "equals") return () => false
    const wanted = source.type === "boolean" ? String(booleanOf(condition.value)) : condition.value
    const code = source.categories.indexOf(String(wanted))
    return (row) => code >= 0 && source.codes[row] === code
  }
  const valueAt = numberAt(source)
  const holds = condition.kind === "equals"
    ? inBounds(boundOf(source, condition.value as number | string), boundOf(source, condition.value as number | string), false)
    : inBounds(boundOf(source, condition.min), boundOf(source, condition.max), false)
  return (row) => {
    const value = valueAt(row)
    return value !== null && holds(value)
  }
}

/** A rule as a refusal names it: the request's field and what it says. */
export interface RuleFailures {
  readonly field: string
  readonly rule: string
  /** Drawn rows that broke it. */
  readonly rows: number
}

export interface RowAcceptor {
  /** The rows of a batch meeting every rule (not repeating a taken row where a rule asks for unique values): taken. */
  readonly take: (table: SynthTable) => Int32Array
  /** Per rule, the rows that broke it so far; rules no row broke are left out. */
  readonly failures: () => ReadonlyArray<RuleFailures>
}

interface Rule {
  readonly field: string
  readonly rule: string
  broken: number
}

/** Checks batches of drawn rows against the rules, remembering the unique keys of the rows it took. */
export const rowAcceptor = (constraints: ReadonlyArray<Constraint>, conditions: ReadonlyArray<Condition>): RowAcceptor => {
  const constraintRules: Array<Rule> = constraints.map((constraint, index) => ({ field: `constraints[${index}]`, rule: describeConstraint(constraint), broken: 0 }))
  const conditionRules: Array<Rule> = conditions.map((condition) => ({ field: `conditions.${condition.column}`, rule: describeCondition(condition), broken: 0 }))
  const seen = constraints.map(() => new Set<string>())

  const take = (table: SynthTable): Int32Array => {
    const column = lookup(table)
    const tests = [
      ...constraints.map((constraint, index) => ({ rule: constraintRules[index]!, test: constraintTest(constraint, table) })),
      ...conditions.map((condition, index) => ({ rule: conditionRules[index]!, test: conditionTest(condition, table) }))
    ].filter((entry): entry is { rule: Rule; test: RowTest } => entry.test !== null)
    const uniques = constraints.flatMap((constraint, index) => {
      if (constraint.type !== "unique") return []
      const columns = constraint.columns.map(column)
      if (columns.some((found) => found === undefined)) return []
      return [{ rule: constraintRules[index]!, keys: seen[index]!, keyOf: uniqueKeyOf(columns as Array<SynthColumn>) }]
    })
    const taken: Array<number> = []
    for (let row = 0; row < table.rowCount; row++) {
      let meets = true
      for (const { rule, test } of tests) {
        if (!test(row)) {
          rule.broken++
          meets = false
        }
      }
      const keys = uniques.map(({ keyOf }) => keyOf(row))
      uniques.forEach(({ keys: taken, rule }, index) => {
        const key = keys[index]!
        if (key !== null && taken.has(key)) {
          rule.broken++
          meets = false
        }
      })
      if (!meets) continue
      uniques.forEach(({ keys: takenKeys }, index) => {
        if (keys[index] !== null) takenKeys.add(keys[index]!)
      })
      taken.push(row)
    }
    return Int32Array.from(taken)
  }

  const failures = () =>
    [...constraintRules, ...conditionRules].filter((rule) => rule.broken > 0).map(({ broken, field, rule }) => ({ field, rule, rows: broken }))

  return { take, failures }
}

/** Per constraint, the rows of a table that break it (for `unique`: rows repeating an earlier row's values). */
export const constraintBreaks = (table: SynthTable, constraints: ReadonlyArray<Constraint>): ReadonlyArray<number> =>
  constraints.map((constraint) => {
    const acceptor = rowAcceptor([constraint], [])
    acceptor.take(table)
    return acceptor.failures()[0]?.rows ?? 0
  })
