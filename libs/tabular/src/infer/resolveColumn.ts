import { formKeys } from "../form/formKeys.ts"
import { anyBooleanPair, booleanPairNames } from "./booleanText.ts"
import type { ColumnEvidence } from "./ColumnEvidence.ts"
import type { ColumnConversion, ColumnPlan } from "./ColumnPlan.ts"
import { dashForm, dotForm, isoForm, slashForm } from "./dateText.ts"
import { commaDecimal, dotDecimal, type NumberConvention } from "./numberText.ts"

/** The narrowest type that every non-missing cell of the column fits, in the order boolean, integer, float, date, datetime, string. */
export const resolveColumn = (name: string, rowCount: number, evidence: ColumnEvidence): ColumnPlan => {
  const plan = (
    conversion: ColumnConversion,
    sourceFormat: string | null,
    standardisedValues: number,
    form: ReadonlyArray<readonly [string, string]> = []
  ): ColumnPlan => ({
    schema: { name, type: conversion.type, missingCount: rowCount - evidence.present, sourceFormat },
    conversion,
    standardisedValues,
    form
  })
  if (evidence.present === 0) return plan({ type: "string" }, null, 0)

  if (evidence.booleanPairs !== 0) {
    const pairName = evidence.booleanPairs === anyBooleanPair
      ? null
      : (booleanPairNames.find(([pair]) => (evidence.booleanPairs & pair) !== 0)?.[1] ?? null)
    const { falseText, trueText } = evidence.booleanSpellings.resolve(evidence.booleanPairs)
    const form = [[formKeys.trueText, trueText], [formKeys.falseText, falseText]] as const
    return plan({ type: "boolean" }, pairName, evidence.present - evidence.canonicalBooleans, form)
  }

  const convention = numberConvention(evidence)
  if (convention !== null) {
    const dot = convention === dotDecimal
    const integral = dot ? evidence.dotIntegral : evidence.commaIntegral
    const separated = dot ? evidence.dotSeparated : evidence.commaSeparated
    const sourceFormat = separated === 0 ? null : dot ? "thousands-separator" : integral ? "dot-thousands" : "decimal-comma"
    const form = (dot ? evidence.dotForm : evidence.commaForm).metadata(!dot, !integral)
    if (integral) {
      const int32 = dot ? evidence.dotInt32 : evidence.commaInt32
      return plan({ type: "integer", convention, storage: int32 ? "int32" : "float64" }, sourceFormat, separated, form)
    }
    return plan({ type: "float", convention }, sourceFormat, separated, form)
  }

  const dayFirst = dateOrder(evidence)
  if (dayFirst !== null) {
    const dateFormat = dateFormatName(evidence.dateForms, dayFirst)
    const iso = evidence.dateForms === isoForm
    evidence.dateForm.observeCanonical(evidence.canonicalDateTimes)
    const form = evidence.dateForm.metadata(iso, separatorOf(evidence.dateForms), dayFirst, evidence.anyTime)
    return evidence.anyTime
      ? plan({ type: "datetime", dayFirst }, iso ? "ISO 8601" : `${dateFormat} hh:mm`, evidence.present - evidence.canonicalDateTimes, form)
      : plan({ type: "date", dayFirst }, dateFormat, evidence.present - evidence.isoDatesOnly, form)
  }
  return plan({ type: "string" }, null, 0)
}

/**
 * Dot decimal unless a cell only reads with a decimal comma. A cell such as `1,234` that reads both ways, as
 * different numbers, leaves the column text unless another cell settles the convention.
 */
const numberConvention = (evidence: ColumnEvidence): NumberConvention | null => {
  switch (evidence.numberConventions) {
    case dotDecimal | commaDecimal:
      return evidence.ambiguousComma ? null : dotDecimal
    case dotDecimal:
      return dotDecimal
    case commaDecimal:
      return commaDecimal
    default:
      return null
  }
}

/**
 * Whether the first part of `a/b/yyyy` is the day: settled by any cell that is a calendar date one way only; never
 * settled, `/` is read the US way (month first) and `.` and `-` the European way. Null: not a date column (no date
 * at all, forms mixed, or cells that contradict each other).
 */
const dateOrder = (evidence: ColumnEvidence): boolean | null => {
  if (!evidence.dates || !isSingleForm(evidence.dateForms)) return null
  if (evidence.dateForms === isoForm) return false
  if (evidence.monthFirstValid && evidence.dayFirstValid) return evidence.dateForms !== slashForm
  if (evidence.dayFirstValid) return true
  if (evidence.monthFirstValid) return false
  return null
}

const isSingleForm = (forms: number): boolean => forms !== 0 && (forms & (forms - 1)) === 0

const separatorOf = (form: number): string => (form === slashForm ? "/" : form === dotForm ? "." : form === dashForm ? "-" : "?")

const dateFormatName = (form: number, dayFirst: boolean): string => {
  if (form === isoForm) return "YYYY-MM-DD"
  const separator = separatorOf(form)
  const parts = dayFirst ? ["DD", "MM"] : ["MM", "DD"]
  return `${parts[0]}${separator}${parts[1]}${separator}YYYY`
}
