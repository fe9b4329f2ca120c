import { describe, expect, it } from "vitest"
import type { AiColumnVerdict, ColumnSample, ScanInput } from "../types.ts"
import { mergeAiVerdicts } from "./mergeAiVerdicts.ts"
import { scanColumns } from "./scanColumns.ts"

const column = (name: string, values: ReadonlyArray<string | null>, kind: ColumnSample["kind"] = "string"): ColumnSample => ({ name, kind, values })

const rows = 40
const emails = Array.from({ length: rows }, (_, i) => `person${i}.name@example${i % 3}.org`)
const ssns = Array.from({ length: rows }, (_, i) => `${String(100 + i).padStart(3, "0")}-${String(10 + i).padStart(2, "0")}-${String(1000 + i * 7)}`)
const cards = ["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117"]
const input: ScanInput = {
  rowCount: 1_000,
  columns: [
    column("email", emails),
    column("col_2", ssns),
    column("card_number", Array.from({ length: rows }, (_, i) => cards[i % 4]!)),
    column("order_number", Array.from({ length: rows }, (_, i) => `ORD-${10_000_000 + i}`)),
    column("version", Array.from({ length: rows }, (_, i) => `1.${i % 4}.${i % 7}.${i % 3}`)),
    column("full_name", Array.from({ length: rows }, (_, i) => ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Linus Pauling"][i % 4]!)),
    column("amount", Array.from({ length: rows }, (_, i) => String(i * 1.5)), "float")
  ]
}
const raw = [...emails, ...ssns, ...cards, "Ada Lovelace", "Alan Turing"]

describe("scanColumns", () => {
  const scan = scanColumns(input)
  const typeOf = (name: string) => scan.findings.find((finding) => finding.column === name)?.type

  it("flags validated values whatever the name, names with consistent values, and leaves decoys alone", () => {
    expect(typeOf("email")).toBe("email_address")
    expect(typeOf("col_2")).toBe("social_security_number")
    expect(typeOf("card_number")).toBe("credit_card_number")
    expect(typeOf("full_name")).toBe("person_name")
    expect(typeOf("order_number")).toBeUndefined()
    expect(typeOf("version")).toBeUndefined()
    expect(typeOf("amount")).toBeUndefined()
    expect(scan).toMatchObject({ pii_detected: true, risk_level: "high", scanned_rows: rows, total_rows: 1_000 })
    expect(scan.overall_risk_assessment.level).toBe("high")
    expect(scan.overall_risk_assessment.actions_required.join(" ")).toContain("\"col_2\"")
  })

  it("ranks confidence by evidence: a checksum with its name above a strict format without one", () => {
    const card = scan.findings.find((finding) => finding.column === "card_number")!
    const ssn = scan.findings.find((finding) => finding.column === "col_2")!
    expect(card.validation).toBe("checksum")
    expect(card.methods).toEqual(["pattern", "context"])
    expect(ssn.methods).toEqual(["pattern"])
    expect(card.confidence).toBeGreaterThan(ssn.confidence)
    for (const finding of scan.findings) {
      expect(finding.confidence).toBeGreaterThanOrEqual(0.4)
      expect(finding.confidence).toBeLessThanOrEqual(0.99)
    }
  })

  it("returns no raw value anywhere: samples are masked", () => {
    const text = JSON.stringify(scan)
    for (const value of raw) expect(text).not.toContain(value)
    expect(scan.findings.find((finding) => finding.column === "col_2")!.sample_values[0]).toMatch(/^\*\*\*-\*\*-\d{4}$/)
  })

  it("answers low with no findings for a table without personal data", () => {
    const clean = scanColumns({ rowCount: 3, columns: [column("cut", ["Ideal", "Good", "Fair"]), column("price", ["326", "327", "334"], "integer")] })
    expect(clean).toMatchObject({ pii_detected: false, risk_level: "low", findings: [], quasi_identifiers: [] })
    expect(clean.overall_risk_assessment.actions_required).toEqual([])
  })
})

describe("mergeAiVerdicts", () => {
  const basic = scanColumns(input)
  const find = (scan: ReturnType<typeof scanColumns>, name: string) => scan.findings.find((finding) => finding.column === name)

  it("raises agreeing findings, keeps checksum findings against a 'none', adds confident new ones", () => {
    const verdicts: ReadonlyArray<AiColumnVerdict> = [
      { column: "full_name", type: "person_name", confidence: 0.9 },
      { column: "card_number", type: null, confidence: 0.95 },
      { column: "order_number", type: "username", confidence: 0.5 },
      { column: "amount", type: "bank_account_number", confidence: 0.8 }
    ]
    const merged = mergeAiVerdicts(basic, verdicts, input)
    expect(find(merged, "full_name")!.confidence).toBeCloseTo(Math.min(0.99, find(basic, "full_name")!.confidence + 0.135), 3)
    expect(find(merged, "full_name")!.methods).toContain("ai")
    expect(find(merged, "card_number")!.type).toBe("credit_card_number")
    expect(find(merged, "card_number")!.confidence).toBeLessThan(find(basic, "card_number")!.confidence)
    expect(find(merged, "order_number")).toBeUndefined()
    expect(find(merged, "amount")).toMatchObject({ type: "bank_account_number", methods: ["ai"], confidence: 0.64 })
  })

  it("drops a format-only finding the AI calls not personal data with confidence", () => {
    const merged = mergeAiVerdicts(basic, [{ column: "col_2", type: null, confidence: 1 }], input)
    const before = find(basic, "col_2")!
    const after = find(merged, "col_2")
    if (before.confidence - 0.3 < 0.4) expect(after).toBeUndefined()
    else expect(after!.confidence).toBeCloseTo(before.confidence - 0.3, 3)
  })
})
