import { hasVetoWord } from "../context/columnName.ts"
import { neighbourSupport } from "../context/neighbours.ts"
import { maskValue } from "../masking/maskValue.ts"
import { patternDetectors } from "../patterns/detectors.ts"
import { defaultQuasiIdentifierOptions, type QuasiIdentifierOptions, quasiIdentifiers } from "../statistical/quasiIdentifiers.ts"
import { columnStatistics, isIdentifier } from "../statistical/uniqueness.ts"
import type { PatternDetector, PiiType, ScanInput } from "../types.ts"
import { assess } from "./assess.ts"
import { decideColumn } from "./decide.ts"
import { columnEvidence } from "./evidence.ts"
import type { PiiScan } from "./PiiScan.ts"

export interface ScanOptions {
  readonly detectors?: ReadonlyArray<PatternDetector>
  readonly mask?: (type: PiiType, value: string) => string
  readonly quasiIdentifiers?: QuasiIdentifierOptions
}

/**
 * The basic scan: per column, value patterns with validation, the column's name and its neighbours; over the
 * table, identifiers and quasi-identifier sets. Deterministic for a given input; raw values never leave it except
 * through `mask`.
 */
export const scanColumns = (input: ScanInput, options: ScanOptions = {}): PiiScan => {
  const detectors = options.detectors ?? patternDetectors
  const mask = options.mask ?? maskValue
  const neighbours = neighbourSupport(input.columns)
  const evidence = input.columns.map((column) => columnEvidence(column, detectors, hasVetoWord))
  const findings = evidence.flatMap((column) => {
    const finding = decideColumn(column, neighbours.get(column.column.name) ?? new Set(), mask)
    return finding === undefined ? [] : [finding]
  })
  const statistics = new Map(input.columns.map((column) => [column.name, columnStatistics(column)]))
  const flagged = new Set(findings.map((finding) => finding.column))
  // Unix times and names of things (products, companies) are distinct per row without being keys: faking them as
  // fresh keys would destroy the column.
  const keyLike = (index: number) => evidence[index]!.numbers === undefined && (evidence[index]!.vocabulary?.thing ?? 0) < 0.5
  const identifiers = input.columns
    .filter((column, index) => isIdentifier(column, statistics.get(column.name)!) && keyLike(index))
    .map((column) => column.name)
  // Columns already flagged are handled by their finding's advice; the sets are about what remains.
  const remaining = input.columns.filter((column) => !flagged.has(column.name) || isQuasiType(findings, column.name))
  const demographicByValues = new Set(findings.filter((finding) => quasiTypes.has(finding.type)).map((finding) => finding.column))
  const quasi = quasiIdentifiers(remaining, statistics, new Set(identifiers), options.quasiIdentifiers ?? defaultQuasiIdentifierOptions, demographicByValues)
  const scannedRows = input.columns[0]?.values.length ?? 0
  const overall = assess(findings, quasi, identifiers, scannedRows)
  return {
    pii_detected: findings.length > 0,
    risk_level: overall.level,
    findings,
    overall_risk_assessment: overall,
    quasi_identifiers: quasi,
    identifiers,
    scanned_rows: scannedRows,
    total_rows: input.rowCount
  }
}

/** Birth dates, postcodes and cities are personal data and quasi-identifiers at once: they stay in the set analysis. */
const quasiTypes: ReadonlySet<PiiType> = new Set(["date_of_birth", "us_zip_code", "uk_postcode", "city"])
const isQuasiType = (findings: PiiScan["findings"], column: string) =>
  findings.some((finding) => finding.column === column && quasiTypes.has(finding.type))
