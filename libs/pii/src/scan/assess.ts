import { piiCatalog } from "../catalog.ts"
import type { QuasiIdentifierSet } from "../statistical/quasiIdentifiers.ts"
import type { PiiType } from "../types.ts"
import type { OverallRiskAssessment, PiiFinding, RiskLevel } from "./PiiScan.ts"

/** Types that reach or name a person directly: one of them makes a table personal data outright. */
const directIdentifiers: ReadonlySet<PiiType> = new Set(["person_name", "email_address", "phone_number", "street_address", "username"])

/**
 * high: a high-sensitivity type (government, financial or health ids), a direct identifier (name, email, phone,
 * address, user name), or a column combination that singles out at least half of the sampled rows;
 * medium: any other finding (ZIP codes, IPs, birth dates...) or any quasi-identifier set below k = 5;
 * low: nothing found.
 */
export const riskLevelOf = (findings: ReadonlyArray<PiiFinding>, quasi: ReadonlyArray<QuasiIdentifierSet>): RiskLevel => {
  const high =
    findings.some((finding) => finding.sensitivity === "high" || directIdentifiers.has(finding.type)) ||
    quasi.some((set) => set.unique_share >= 0.5)
  if (high) return "high"
  return findings.length > 0 || quasi.length > 0 ? "medium" : "low"
}

const list = (names: ReadonlyArray<string>) => names.map((name) => JSON.stringify(name)).join(", ")

const describeFinding = (finding: PiiFinding) => `${JSON.stringify(finding.column)} (${piiCatalog[finding.type].label})`

/** One or two sentences naming the columns, then the concrete steps before training synthetic data on the table. */
export const assess = (
  findings: ReadonlyArray<PiiFinding>,
  quasi: ReadonlyArray<QuasiIdentifierSet>,
  identifiers: ReadonlyArray<string>,
  scannedRows: number
): OverallRiskAssessment => {
  const level = riskLevelOf(findings, quasi)
  const actions: Array<string> = []
  const dropped = findings.filter((finding) => finding.sensitivity === "high")
  const pseudonymised = findings.filter((finding) => finding.sensitivity !== "high" && directIdentifiers.has(finding.type))
  const generalised = findings.filter((finding) => finding.sensitivity !== "high" && !directIdentifiers.has(finding.type))
  if (dropped.length > 0) {
    actions.push(`Drop ${list(dropped.map((finding) => finding.column))} before training: government, financial or health identifiers must not be learned.`)
  }
  if (pseudonymised.length > 0) {
    actions.push(`Replace ${list(pseudonymised.map((finding) => finding.column))} with random tokens or fake values, or drop them, before training.`)
  }
  if (generalised.length > 0) {
    actions.push(`Generalise ${list(generalised.map((finding) => finding.column))} (truncate, round or band the values) before training.`)
  }
  for (const set of quasi.slice(0, 3)) {
    actions.push(
      `Generalise or suppress ${list(set.columns)} together: their combination leaves classes of ${set.k_anonymity} row(s) (k < 5).`
    )
  }
  if (identifiers.length > 0 && level !== "low") {
    actions.push(`Drop or re-key the identifier column(s) ${list(identifiers)}: they link synthetic rows back to real ones.`)
  }
  if (level !== "low") {
    actions.push("Train with dp-ctgan (a target epsilon of 1 to 5) if the personal columns must stay, and check the evaluation's privacy metrics before sharing.")
  }
  const found = findings.length === 0
    ? `No column of personal data found in ${scannedRows} scanned rows.`
    : `${findings.length} column(s) hold personal data: ${findings.map(describeFinding).join(", ")}.`
  const combined = quasi.length === 0 ? "" : ` ${quasi.length} column combination(s) single out rows (smallest class k = ${Math.min(...quasi.map((set) => set.k_anonymity))}).`
  return { level, description: `${found}${combined}`, actions_required: actions }
}
