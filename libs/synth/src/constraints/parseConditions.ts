import type { ColumnFacts } from "./datasetFacts.ts"
import type { RuleProblem } from "./parseConstraints.ts"
import type { BoundValue, Condition } from "./rules.ts"
import { booleanOf, columnOfType, expectedValue, isNumericType, type NumericType, valueInColumnUnits } from "./values.ts"

/**
 * The request's `conditions` (`{"churned": "Yes", "age": {"min": 30, "max": 40}}`) read against the dataset: a value
 * for a string or boolean column, a value or a range for a number, date or datetime column. A condition the data
 * can never meet (a label it does not hold, a range beside all its values) is a problem of the request, found here
 * when the facts say so (the gateway's 422); otherwise the sampling's budget finds it.
 */

const unitsText = (type: NumericType, units: number) =>
  type === "date"
    ? new Date(units * 86_400_000).toISOString().slice(0, 10)
    : type === "datetime"
    ? new Date(units).toISOString()
    : String(units)

const parseCondition = (name: string, raw: unknown, facts: ColumnFacts | undefined, problems: Array<RuleProblem>): Condition | null => {
  const field = `conditions.${name}`
  const problem = (at: string, message: string) => {
    problems.push({ field: at, message })
    return null
  }
  if (facts === undefined) return problem(field, `unknown column ${JSON.stringify(name)}`)
  if (raw === null || raw === undefined) return problem(field, "must be a value to meet (a missing value cannot be asked for)")
  if (facts.type === "boolean") {
    const value = booleanOf(raw)
    return value === null ? problem(field, `${name} is ${columnOfType("boolean")}: the condition is true or false (or "yes"/"no")`) : { kind: "equals", column: name, value }
  }
  if (facts.type === "string") {
    if (typeof raw !== "string") return problem(field, `${name} is ${columnOfType("string")}: the condition is one of its values, as text`)
    if (facts.labels !== null && !facts.labels.includes(raw)) return problem(field, `${JSON.stringify(raw)} never occurs in ${name} in the data`)
    return { kind: "equals", column: name, value: raw }
  }
  const type = facts.type as NumericType
  const inUnits = (at: string, value: unknown): { raw: BoundValue | null; units: number | null } | null => {
    if (value === undefined || value === null) return { raw: null, units: null }
    const units = typeof value === "number" || typeof value === "string" ? valueInColumnUnits(type, value) : null
    return units === null ? problem(at, `${name} is ${columnOfType(type)}: the value must be ${expectedValue(type)}`) : { raw: value as BoundValue, units }
  }
  /** The data's values all lie outside [min, max]: no row the model learned from meets it. */
  const outsideData = (min: number | null, max: number | null) =>
    facts.range !== null && ((min !== null && min > facts.range.max) || (max !== null && max < facts.range.min))
  const dataRange = () => facts.range === null ? "" : ` (the data's ${name} runs from ${unitsText(type, facts.range.min)} to ${unitsText(type, facts.range.max)})`

  if (typeof raw === "object" && !Array.isArray(raw)) {
    const fields = raw as Readonly<Record<string, unknown>>
    const before = problems.length
    for (const key of Object.keys(fields)) if (key !== "min" && key !== "max") problem(`${field}.${key}`, "is not a field of a range condition (min, max)")
    const min = inUnits(`${field}.min`, fields["min"])
    const max = inUnits(`${field}.max`, fields["max"])
    if (min === null || max === null || problems.length > before) return null
    if (min.units === null && max.units === null) return problem(field, "a range condition needs min, max or both")
    if (min.units !== null && max.units !== null && min.units > max.units) return problem(`${field}.min`, `min ${String(min.raw)} is above max ${String(max.raw)}`)
    if (outsideData(min.units, max.units)) return problem(field, `no value of ${name} in the data lies in that range${dataRange()}`)
    return { kind: "between", column: name, min: min.raw, max: max.raw }
  }
  const value = inUnits(field, raw)
  if (value === null || value.units === null || !isNumericType(facts.type)) return null
  if (outsideData(value.units, value.units)) return problem(field, `${String(value.raw)} lies outside the data's values${dataRange()}`)
  return { kind: "equals", column: name, value: value.raw! }
}

/** The conditions (absent: none), in the request's order, or the problems of each field. */
export const parseConditions = (
  raw: unknown,
  columns: ReadonlyMap<string, ColumnFacts>,
  problems: Array<RuleProblem>
): Array<Condition> => {
  if (raw === undefined || raw === null) return []
  if (typeof raw !== "object" || Array.isArray(raw)) {
    problems.push({ field: "conditions", message: "must be an object of column names to values or ranges" })
    return []
  }
  return Object.entries(raw).flatMap(([name, value]) => parseCondition(name, value, columns.get(name), problems) ?? [])
}
