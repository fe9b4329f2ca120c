import type { ColumnType } from "../table.ts"
import type { ColumnFacts } from "./datasetFacts.ts"
import { type BoundValue, type Constraint, constraintTypes } from "./rules.ts"
import { columnOfType, expectedValue, isNumericType, type NumericType, valueInColumnUnits } from "./values.ts"

/**
 * The request's `constraints` read against the dataset's columns: each problem names its field
 * (`constraints[0].low`) and says what is wrong and what would do. Parsed constraints come out with their defaults.
 */
export interface RuleProblem {
  readonly field: string
  readonly message: string
}

type Fields = Readonly<Record<string, unknown>>

const fieldsOf: Readonly<Record<Constraint["type"], ReadonlyArray<string>>> = {
  inequality: ["type", "low", "high", "strict"],
  fixed_combinations: ["type", "columns"],
  range: ["type", "column", "min", "max", "strict"],
  unique: ["type", "columns"],
  positive: ["type", "column", "strict"]
}

const typeFamily = (type: ColumnType) => (type === "integer" || type === "float" ? "number" : type)

/** Parses one constraint, adding its problems to `problems`; null when it has any. */
const parseConstraint = (
  raw: unknown,
  field: string,
  columns: ReadonlyMap<string, ColumnFacts>,
  problems: Array<RuleProblem>
): Constraint | null => {
  const before = problems.length
  const problem = (at: string, message: string) => problems.push({ field: at, message })
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problem(field, `must be an object with a "type" (one of ${constraintTypes.join(", ")})`)
    return null
  }
  const fields = raw as Fields
  const type = fields["type"]
  if (typeof type !== "string" || !(constraintTypes as ReadonlyArray<string>).includes(type)) {
    problem(`${field}.type`, `unknown constraint type ${JSON.stringify(type ?? null)}: one of ${constraintTypes.join(", ")}`)
    return null
  }
  const kind = type as Constraint["type"]
  for (const key of Object.keys(fields)) {
    if (!fieldsOf[kind].includes(key)) problem(`${field}.${key}`, `is not a field of a ${kind} constraint (its fields: ${fieldsOf[kind].join(", ")})`)
  }

  /** A column name field: it must name a column of the dataset, of one of the given types when given. */
  const column = (at: string, value: unknown, allowed: ReadonlyArray<ColumnType> | null, what: string): ColumnFacts | null => {
    if (typeof value !== "string") {
      problem(at, "must be a column name")
      return null
    }
    const facts = columns.get(value)
    if (facts === undefined) {
      problem(at, `unknown column ${JSON.stringify(value)}`)
      return null
    }
    if (allowed !== null && !allowed.includes(facts.type)) {
      problem(at, `${value} is ${columnOfType(facts.type)}; a ${kind} constraint takes ${what}`)
      return null
    }
    return facts
  }
  const columnList = (minimum: number, allowed: ReadonlyArray<ColumnType> | null, what: string): Array<string> => {
    const value = fields["columns"]
    if (!Array.isArray(value) || value.length < minimum) {
      problem(`${field}.columns`, `must be a list of at least ${minimum} column name${minimum === 1 ? "" : "s"}`)
      return []
    }
    value.forEach((name, index) => {
      if (value.indexOf(name) !== index) problem(`${field}.columns[${index}]`, `${JSON.stringify(name)} is listed twice`)
      else column(`${field}.columns[${index}]`, name, allowed, what)
    })
    return value as Array<string>
  }
  const strict = (): boolean => {
    const value = fields["strict"]
    if (value === undefined) return false
    if (typeof value !== "boolean") problem(`${field}.strict`, "must be true or false")
    return value === true
  }
  const bound = (key: "min" | "max", facts: ColumnFacts | null): { raw: BoundValue | null; units: number | null } => {
    const value = fields[key]
    if (value === undefined || value === null) return { raw: null, units: null }
    if (facts === null || !isNumericType(facts.type)) return { raw: null, units: null }
    const units = typeof value === "number" || typeof value === "string" ? valueInColumnUnits(facts.type, value) : null
    if (units === null) problem(`${field}.${key}`, `${facts.name} is ${columnOfType(facts.type)}: ${key} must be ${expectedValue(facts.type as NumericType)}`)
    return { raw: units === null ? null : (value as BoundValue), units }
  }

  const numeric: ReadonlyArray<ColumnType> = ["integer", "float", "date", "datetime"]
  switch (kind) {
    case "inequality": {
      const low = column(`${field}.low`, fields["low"], numeric, "number, date or datetime columns")
      const high = column(`${field}.high`, fields["high"], numeric, "number, date or datetime columns")
      if (low !== null && high !== null) {
        if (low.name === high.name) problem(`${field}.high`, "must name another column than low")
        else if (typeFamily(low.type) !== typeFamily(high.type)) {
          problem(`${field}.high`, `${high.name} is ${columnOfType(high.type)} and ${low.name} ${columnOfType(low.type)}: an inequality compares two number columns, two dates or two datetimes`)
        }
      }
      const isStrict = strict()
      return problems.length > before ? null : { type: "inequality", low: low!.name, high: high!.name, strict: isStrict }
    }
    case "fixed_combinations": {
      const names = columnList(2, ["string", "boolean"], "string or boolean columns")
      return problems.length > before ? null : { type: "fixed_combinations", columns: names }
    }
    case "unique": {
      const names = columnList(1, null, "")
      return problems.length > before ? null : { type: "unique", columns: names }
    }
    case "positive": {
      const facts = column(`${field}.column`, fields["column"], ["integer", "float"], "an integer or float column")
      const isStrict = strict()
      return problems.length > before ? null : { type: "positive", column: facts!.name, strict: isStrict }
    }
    case "range": {
      const facts = column(`${field}.column`, fields["column"], numeric, "a number, date or datetime column")
      const min = bound("min", facts)
      const max = bound("max", facts)
      const isStrict = strict()
      if (facts !== null && fields["min"] == null && fields["max"] == null) problem(field, "needs min, max or both")
      if (min.units !== null && max.units !== null && (isStrict ? min.units >= max.units : min.units > max.units)) {
        problem(`${field}.min`, `min ${String(min.raw)} is ${isStrict ? "not below" : "above"} max ${String(max.raw)}`)
      }
      return problems.length > before ? null : { type: "range", column: facts!.name, min: min.raw, max: max.raw, strict: isStrict }
    }
  }
}

/** The constraints (absent: none), or the problems of each field. */
export const parseConstraints = (
  raw: unknown,
  columns: ReadonlyMap<string, ColumnFacts>,
  problems: Array<RuleProblem>
): Array<Constraint> => {
  if (raw === undefined || raw === null) return []
  if (!Array.isArray(raw)) {
    problems.push({ field: "constraints", message: "must be a list of constraints" })
    return []
  }
  return raw.flatMap((entry, index) => parseConstraint(entry, `constraints[${index}]`, columns, problems) ?? [])
}
