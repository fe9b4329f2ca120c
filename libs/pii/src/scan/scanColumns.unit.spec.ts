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
    column("amount", Array.from({ length: rows }, (_, i) => String(i * 1.5)), "float"),
    column("member_code", Array.from({ length: rows }, (_, i) => `K${1000 + i * 37}`)),
    column("created_ts", Array.from({ length: rows }, (_, i) => String(1_700_000_000 + i * 86_413)), "integer")
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

describe("names and cities by their values", () => {
  const names = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Linus Pauling", "Marie Curie", "Emmy Noether", "Katherine Johnson", "Edsger Dijkstra"]
  const cities = ["Springfield", "Toulouse", "Lyon", "Bremen", "Albany", "Toulouse", "Lyon", "Springfield"]
  const repeat = (values: ReadonlyArray<string>) => Array.from({ length: rows }, (_, i) => values[i % values.length]!)
  const typeIn = (columns: ReadonlyArray<ColumnSample>, name: string) =>
    scanColumns({ rowCount: rows, columns }).findings.find((finding) => finding.column === name)?.type

  it("finds person names under a role word, a bare half of a name, or a name that says nothing", () => {
    for (const name of ["employee", "who", "first", "col_3"]) expect(typeIn([column(name, repeat(names))], name), name).toBe("person_name")
    expect(typeIn([column("last", repeat(["Smith", "Müller", "Garcia", "Rossi", "Dubois", "Jansen", "Silva"]))], "last")).toBe("person_name")
  })

  it("gives a name that says street address nothing when no value is an address", () => {
    expect(typeIn([column("address", repeat(["Yes", "No", "Unknown"]))], "address")).toBeUndefined()
  })

  it("gives a role word nothing when the values are not names", () => {
    expect(typeIn([column("manager", repeat(["Yes", "No"]))], "manager")).toBeUndefined()
    expect(typeIn([column("last", repeat(["2024-01-02", "2024-03-04"]), "date")], "last")).toBeUndefined()
    expect(typeIn([column("customer", repeat(["Gorgeous Granite Chair", "Sleek Steel Table", "Rustic Wooden Bike"]))], "customer")).toBeUndefined()
  })

  it("never takes products, companies, cities, colours or categories for person names", () => {
    const things = [
      ["product", ["Gorgeous Granite Chair", "Sleek Steel Table", "Rustic Wooden Bike", "Small Cotton Shoes"]],
      ["company", ["Hilpert LLC", "Kuhn, Schmidt and Bauch", "Schowalter - Kuhn", "Bauch Group"]],
      ["office", cities],
      ["colour", ["Red", "Green", "Blue", "White", "Black", "Silver", "Gold"]],
      ["category", ["Electronics", "Garden", "Books", "Toys", "Sports"]],
      ["name", ["Gorgeous Granite Chair", "Sleek Steel Table", "Rustic Wooden Bike", "Small Cotton Shoes"]],
      ["col_9", ["Red", "Green", "Blue", "White", "Black", "Brown", "Gray"]]
    ] as const
    for (const [name, values] of things) expect(typeIn([column(name, repeat(values))], name), name).not.toBe("person_name")
  })

  it("finds a city by its name, by its values, or beside a postcode or country column", () => {
    const places = ["Springfield", "Lyon", "Oakridge", "Bremen", "Albany", "Lyon", "Lyon", "Albany"]
    expect(typeIn([column("city", repeat(places))], "city")).toBe("city")
    expect(typeIn([column("office", repeat(cities))], "office")).toBe("city")
    // Neither the name nor the gazetteer knows most of these towns: the postcode or country beside them decides.
    const unknown = repeat(["Aarhus", "Tartu", "Lyon", "Gdansk", "Zagreb", "Lyon"])
    expect(typeIn([column("branch", unknown)], "branch")).toBeUndefined()
    expect(typeIn([column("branch", unknown), column("zip", repeat(["94110", "10001", "60601"]))], "branch")).toBe("city")
    expect(typeIn([column("branch", unknown), column("country", repeat(["France", "Germany"]))], "branch")).toBe("city")
    expect(typeIn([column("branch", repeat(["Gold", "Silver"])), column("zip", repeat(["94110", "10001"]))], "branch")).toBeUndefined()
  })

  it("puts a city found by its values into the quasi-identifier sets and reports it as location data", () => {
    const scan = scanColumns({ rowCount: rows, columns: [column("office", [...repeat(cities).slice(1), "Bremen"]), column("plan", repeat(["a", "b"]))] })
    expect(scan.findings[0]).toMatchObject({ column: "office", type: "city", category: "location", sensitivity: "low" })
    expect(scan.findings[0]!.sample_values.every((value) => /^\p{Lu}\*\*\*/u.test(value))).toBe(true)
    expect(scan.quasi_identifiers.some((set) => set.columns.includes("office"))).toBe(true)
  })
})

describe("numbers that are not ids", () => {
  const typeOf = (columns: ReadonlyArray<ColumnSample>, name: string) =>
    scanColumns({ rowCount: rows, columns }).findings.find((finding) => finding.column === name)?.type

  it("types a latitude/longitude pair as coordinates and a lone decimal column as nothing, never a phone", () => {
    const latitude = Array.from({ length: rows }, (_, i) => (-33.868820 + i * 0.0131).toFixed(6))
    const longitude = Array.from({ length: rows }, (_, i) => (151.209290 - i * 0.0117).toFixed(6))
    expect(typeOf([column("lat", latitude, "float"), column("lon", longitude, "float")], "lat")).toBe("geo_coordinates")
    expect(typeOf([column("phone", latitude, "float")], "phone")).toBeUndefined()
    expect(typeOf([column("reading", latitude)], "reading")).toBeUndefined()
  })

  it("leaves Unix times alone unless the name states a type, and never lists them as identifiers", () => {
    const seconds = Array.from({ length: rows }, (_, i) => 1_700_000_000 + i * 86_413)
    const npiLike = seconds.map((value) => String(value))
    for (const name of ["created_ts", "c4", "epoch"]) {
      const scan = scanColumns({ rowCount: rows, columns: [column(name, npiLike, "integer")] })
      expect(scan.findings, name).toEqual([])
      expect(scan.identifiers, name).toEqual([])
    }
    const millis = seconds.map((value) => String(value * 1000 + 7))
    expect(scanColumns({ rowCount: rows, columns: [column("event_ms", millis, "integer")] }).identifiers).toEqual([])
    // 9-digit seconds (1973 to 2001) have a bare SSN's shape; without the name they stay times.
    const nineDigits = seconds.map((value) => String(value - 800_000_000))
    expect(typeOf([column("batch", nineDigits, "integer")], "batch")).toBeUndefined()
  })

  it("does not take integer amounts for identifiers", () => {
    const counts = Array.from({ length: rows }, (_, i) => String(10_000 + ((i * 7919) % 89_999)))
    expect(scanColumns({ rowCount: rows, columns: [column("stock_count", counts, "integer")] }).identifiers).toEqual([])
    expect(scanColumns({ rowCount: rows, columns: [column("account", counts, "integer")] }).identifiers).toEqual(["account"])
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
      { column: "member_code", type: "bank_account_number", confidence: 0.8 }
    ]
    const merged = mergeAiVerdicts(basic, verdicts, input)
    expect(find(merged, "full_name")!.confidence).toBeCloseTo(Math.min(0.99, find(basic, "full_name")!.confidence + 0.135), 3)
    expect(find(merged, "full_name")!.methods).toContain("ai")
    expect(find(merged, "card_number")!.type).toBe("credit_card_number")
    expect(find(merged, "card_number")!.confidence).toBeLessThan(find(basic, "card_number")!.confidence)
    expect(find(merged, "order_number")).toBeUndefined()
    expect(find(merged, "member_code")).toMatchObject({ type: "bank_account_number", methods: ["ai"], confidence: 0.64 })
  })

  it("adds nothing to a column of decimals or Unix times that its name does not state", () => {
    const verdicts: ReadonlyArray<AiColumnVerdict> = [
      { column: "amount", type: "phone_number", confidence: 0.95 },
      { column: "created_ts", type: "npi_number", confidence: 0.95 }
    ]
    const merged = mergeAiVerdicts(basic, verdicts, input)
    expect(find(merged, "amount")).toBeUndefined()
    expect(find(merged, "created_ts")).toBeUndefined()
    const npi: ScanInput = { rowCount: rows, columns: [column("provider_npi", input.columns.at(-1)!.values, "integer")] }
    expect(find(mergeAiVerdicts(scanColumns(npi), [{ column: "provider_npi", type: "npi_number", confidence: 0.95 }], npi), "provider_npi")?.type).toBe("npi_number")
  })

  it("drops a format-only finding the AI calls not personal data with confidence", () => {
    const merged = mergeAiVerdicts(basic, [{ column: "col_2", type: null, confidence: 1 }], input)
    const before = find(basic, "col_2")!
    const after = find(merged, "col_2")
    if (before.confidence - 0.3 < 0.4) expect(after).toBeUndefined()
    else expect(after!.confidence).toBeCloseTo(before.confidence - 0.3, 3)
  })
})
