import { hasVetoWord } from "../context/columnName.ts"
import { maskValue } from "../masking/maskValue.ts"
import { patternDetectors } from "../patterns/detectors.ts"
import type { AiColumnVerdict, PatternDetector, PiiMethod, PiiType, ScanInput } from "../types.ts"
import { assess } from "./assess.ts"
import { clampConfidence, findingOf, minimumConfidence, numbersAllow } from "./decide.ts"
import { columnEvidence } from "./evidence.ts"
import type { PiiFinding, PiiScan } from "./PiiScan.ts"

export interface MergeOptions {
  /** An AI verdict adds a finding the basic scan did not make only at this confidence or above. */
  readonly addThreshold?: number
  readonly detectors?: ReadonlyArray<PatternDetector>
  readonly mask?: (type: PiiType, value: string) => string
}

const withAi = (methods: ReadonlyArray<PiiMethod>): ReadonlyArray<PiiMethod> => (methods.includes("ai") ? methods : [...methods, "ai"])

/**
 * The enhanced scan: the basic scan's findings revised by the AI layer's verdicts, column by column.
 * - Agreement raises a finding's confidence by 0.15 × the verdict's, and adds the method `ai`.
 * - "Not personal data" lowers it by 0.3 × the verdict's (0.05 × for a checksum-validated finding, which stays
 *   whatever the AI says); a finding that falls under the minimum confidence is dropped.
 * - Another type: the finding stands (values validated by the patterns outweigh a guess from shapes).
 * - A type for a column without finding adds one (method `ai`, plus `context` when the name agrees) when the verdict's
 *   confidence reaches `addThreshold`, with confidence 0.8 × the verdict's (+0.1 with the name's support); never to
 *   a column of decimals or Unix times unless its name states the type (scan/decide.ts, `numbersAllow`).
 * Risk and the assessment are computed again from the result.
 */
export const mergeAiVerdicts = (
  scan: PiiScan,
  verdicts: ReadonlyArray<AiColumnVerdict>,
  input: ScanInput,
  options: MergeOptions = {}
): PiiScan => {
  const addThreshold = options.addThreshold ?? 0.6
  const detectors = options.detectors ?? patternDetectors
  const mask = options.mask ?? maskValue
  const byColumn = new Map(verdicts.map((verdict) => [verdict.column, verdict]))
  const findings: Array<PiiFinding> = []
  for (const finding of scan.findings) {
    const verdict = byColumn.get(finding.column)
    if (verdict === undefined) {
      findings.push(finding)
    } else if (verdict.type === finding.type) {
      findings.push({ ...finding, confidence: clampConfidence(finding.confidence + 0.15 * verdict.confidence), methods: withAi(finding.methods) })
    } else if (verdict.type === null) {
      const weight = finding.validation === "checksum" ? 0.05 : 0.3
      const confidence = clampConfidence(finding.confidence - weight * verdict.confidence)
      if (finding.validation === "checksum" || confidence >= minimumConfidence) findings.push({ ...finding, confidence })
    } else {
      findings.push(finding)
    }
  }
  const flagged = new Set(scan.findings.map((finding) => finding.column))
  for (const column of input.columns) {
    const verdict = byColumn.get(column.name)
    if (verdict?.type === undefined || verdict.type === null || flagged.has(column.name) || verdict.confidence < addThreshold) continue
    const evidence = columnEvidence(column, detectors, hasVetoWord)
    // A column of decimals or Unix times takes only what its name states: a learned guess from digit shapes cannot
    // tell a latitude from a phone number, or an epoch second from an NPI.
    if (evidence.present.length === 0 || !numbersAllow(evidence, verdict.type)) continue
    const named = evidence.hint?.types.includes(verdict.type) === true
    const confidence = clampConfidence(0.8 * verdict.confidence + (named ? 0.1 : 0))
    const methods: Array<PiiMethod> = named ? ["context", "ai"] : ["ai"]
    if (evidence.byType.has(verdict.type)) methods.unshift("pattern")
    findings.push(findingOf(evidence, verdict.type, confidence, methods, mask))
  }
  const ordered = input.columns.flatMap((column) => findings.filter((finding) => finding.column === column.name))
  const overall = assess(ordered, scan.quasi_identifiers, scan.identifiers, scan.scanned_rows)
  return { ...scan, pii_detected: ordered.length > 0, risk_level: overall.level, findings: ordered, overall_risk_assessment: overall }
}
