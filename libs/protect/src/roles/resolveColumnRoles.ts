import type { PiiType } from "@synth/pii"
import type { ColumnType } from "@synth/synth"
import type { ColumnHandling, ColumnPlan, ColumnRole } from "./ColumnPlan.ts"

/** What role resolution reads of a scan (the stored scan result has these fields, and more). */
export interface ScanSummary {
  readonly findings: ReadonlyArray<{ readonly column: string; readonly type: PiiType }>
  readonly identifiers: ReadonlyArray<string>
  readonly quasi_identifiers: ReadonlyArray<{ readonly columns: ReadonlyArray<string> }>
}

/**
 * Personal types that single out people only in combination: learned (with the protections), never faked by
 * default. A birth date or a ZIP code is a demographic fact many people share; a city too. A routing number names a
 * bank branch, not a person.
 */
const quasiTypes: ReadonlySet<string> = new Set(["date_of_birth", "us_zip_code", "uk_postcode", "city", "bank_routing_number"])

/** Sensitive attributes rather than identifiers: what an attacker wants to learn, kept as data (diagnoses). */
const attributeTypes: ReadonlySet<string> = new Set(["icd10_code"])

/**
 * Fake values replace text and whole numbers (names, e-mails, national ids, keys). A float, boolean or datetime
 * column flagged as personal (numeric coordinates, a measurement) is learned as a quasi-identifier instead, with the
 * value protection, since no fake of its kind would keep it usable.
 */
const fakeable = (type: ColumnType) => type === "string" || type === "integer"

const roleOf = (column: { readonly name: string; readonly type: ColumnType }, scan: ScanSummary): {
  readonly role: ColumnRole
  readonly piiType: PiiType | null
} => {
  const finding = scan.findings.find((candidate) => candidate.column === column.name)
  if (finding !== undefined) {
    if (attributeTypes.has(finding.type)) return { role: "data", piiType: finding.type }
    if (quasiTypes.has(finding.type) || !fakeable(column.type)) return { role: "quasi_identifier", piiType: finding.type }
    return { role: "direct_identifier", piiType: finding.type }
  }
  if (scan.identifiers.includes(column.name) && fakeable(column.type)) return { role: "identifier", piiType: null }
  if (scan.quasi_identifiers.some((set) => set.columns.includes(column.name))) return { role: "quasi_identifier", piiType: null }
  return { role: "data", piiType: null }
}

const defaultHandling = (role: ColumnRole): ColumnHandling =>
  role === "identifier" || role === "direct_identifier" ? "fake" : "keep"

/**
 * Every column's role, from the dataset's scan, and its handling: the request's override, else the role's default
 * (identifiers and direct identifiers are faked, the rest learned). Columns in the table's order.
 */
export const resolveColumnRoles = (
  columns: ReadonlyArray<{ readonly name: string; readonly type: ColumnType }>,
  scan: ScanSummary,
  overrides: Readonly<Record<string, ColumnHandling>>
): ReadonlyArray<ColumnPlan> =>
  columns.map((column) => {
    const { piiType, role } = roleOf(column, scan)
    const override = Object.hasOwn(overrides, column.name) ? overrides[column.name] : undefined
    return {
      name: column.name,
      type: column.type,
      role,
      piiType,
      handling: override ?? defaultHandling(role),
      handlingSource: override === undefined ? "default" : "request"
    }
  })
