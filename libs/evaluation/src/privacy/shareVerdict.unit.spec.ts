import { describe, expect, it } from "vitest"
import type { AttributeInference } from "./attributeInference.ts"
import type { MembershipInference } from "./membershipInference.ts"
import { type CheckStatus, type PrivacyCheckName, shareVerdict, type VerdictInput } from "./shareVerdict.ts"
import type { ColumnDisclosure } from "./valueDisclosure.ts"

const disclosed = (overrides: Partial<ColumnDisclosure>): ColumnDisclosure => ({
  name: "email", role: "direct_identifier", handling: "fake", piiType: "email_address", rule: "no_real_values", inOutput: true,
  values: 100, realValues: 0, realShare: 0, rareValues: 0, rareShare: 0, chanceRareShare: null, passed: true, ...overrides
})
const inference = (passed: boolean | null): AttributeInference => ({
  sensitive: "subscribed",
  keys: ["zip", "city"],
  members: { rows: 360, matchedRows: 360, capProtection: 0.4, zeroCapProtection: 0.4, disclosureProtection: 0.8, baselineProtection: 0.5 },
  nonMembers: passed === null ? null : { rows: 40, matchedRows: 40, capProtection: 0.45, zeroCapProtection: 0.45, disclosureProtection: 0.9, baselineProtection: 0.5 },
  excess: passed === null ? null : passed ? { estimate: 0.05, low: -0.02, high: 0.12 } : { estimate: 0.3, low: 0.2, high: 0.4 },
  passed
})
const attack = (auc: number, high: number | null): MembershipInference => ({
  auc,
  interval: high === null ? null : { low: 2 * auc - high, high, standardError: (high - auc) / 1.96, method: "DeLong" },
  passed: high !== null && auc <= 0.6 && high <= 0.7,
  members: 360,
  nonMembers: 40
})

const safe: VerdictInput = {
  disclosure: [disclosed({}), disclosed({ name: "city", role: "quasi_identifier", handling: "keep", piiType: null, rule: "no_rare_values", realValues: 95, realShare: 0.95 })],
  attributeInference: [inference(true)],
  membershipInference: attack(0.52, 0.61),
  exactCopies: { rows: 0, share: 0, holdoutShare: 0, passed: true },
  rareThreshold: 5
}

const statuses = (input: VerdictInput): Record<PrivacyCheckName, CheckStatus> =>
  Object.fromEntries(shareVerdict(input).checks.map(({ name, status }) => [name, status])) as Record<PrivacyCheckName, CheckStatus>

describe("shareVerdict", () => {
  it("is safe to share only when every check passes or has nothing to measure", () => {
    expect(shareVerdict(safe)).toMatchObject({ safeToShare: true, failing: [], notRun: [] })
    const nothingPersonal = shareVerdict({ ...safe, disclosure: [], attributeInference: [] })
    expect(nothingPersonal.safeToShare).toBe(true)
    expect(nothingPersonal.checks.map(({ status }) => status)).toEqual(["not_applicable", "not_applicable", "not_applicable", "passed", "passed"])
  })

  it("fails on one real e-mail, names the column and the share, and no other check makes up for it", () => {
    const verdict = shareVerdict({ ...safe, disclosure: [disclosed({ realValues: 1, realShare: 0.01, handling: "keep", passed: false })] })
    expect(verdict).toMatchObject({ safeToShare: false, failing: ["identifier_disclosure"] })
    const check = verdict.checks.find(({ name }) => name === "identifier_disclosure")!
    expect(check).toMatchObject({ status: "failed", columns: ["email"], finding: "email (keep): 1.0 % of 100 output values are real (1)" })
  })

  it("fails on each other check alone", () => {
    const rare = disclosed({ name: "city", role: "quasi_identifier", rule: "no_rare_values", rareValues: 2, rareShare: 0.02, passed: false })
    expect(shareVerdict({ ...safe, disclosure: [rare] }).failing).toEqual(["quasi_identifier_disclosure"])
    expect(shareVerdict({ ...safe, attributeInference: [inference(false)] }).failing).toEqual(["attribute_inference"])
    expect(shareVerdict({ ...safe, membershipInference: attack(0.65, 0.72) }).failing).toEqual(["membership_inference"])
    // A low AUC whose interval still reaches a moderate attack: too few held-out rows to call it safe.
    expect(shareVerdict({ ...safe, membershipInference: attack(0.55, 0.74) }).failing).toEqual(["membership_inference"])
    expect(shareVerdict({ ...safe, exactCopies: { rows: 12, share: 0.012, holdoutShare: 0, passed: false } }).failing).toEqual(["exact_copies"])
  })

  it("is not safe when a check could not run: no roles, no held-out rows, too few rows", () => {
    expect(statuses({ ...safe, disclosure: null, attributeInference: null, rareThreshold: null })).toMatchObject({
      identifier_disclosure: "not_run", quasi_identifier_disclosure: "not_run", attribute_inference: "not_run"
    })
    const noHoldout = shareVerdict({ ...safe, membershipInference: null, attributeInference: [inference(null)] })
    expect(noHoldout).toMatchObject({ safeToShare: false, notRun: ["attribute_inference", "membership_inference"] })
    expect(shareVerdict({ ...safe, membershipInference: attack(0.5, null) })).toMatchObject({ safeToShare: false, notRun: ["membership_inference"] })
  })

  it("states each rule with its thresholds", () => {
    const rules = Object.fromEntries(shareVerdict(safe).checks.map(({ name, rule }) => [name, rule]))
    expect(rules["quasi_identifier_disclosure"]).toContain("fewer than 5 training rows")
    expect(rules["attribute_inference"]).toContain("0.1 better")
    expect(rules["membership_inference"]).toContain("AUC of at most 0.6")
    expect(rules["membership_inference"]).toContain("upper end is at most 0.7")
  })
})
