import { piiTypes, ssn } from "@synth/pii"
import fc from "fast-check"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { keyedBloomFromJSON } from "../keyedBloom.ts"
import type { FakeKind } from "../roles/ColumnPlan.ts"
import { makeDraws } from "./draws.ts"
import { fakeColumn } from "./fakeColumn.ts"
import { FakePlan } from "./FakePlan.ts"
import { fakeValueKey, planFakeColumn } from "./planFakeColumn.ts"
import { realColumn } from "./testing/realColumns.ts"

const kinds: ReadonlyArray<FakeKind> = [...piiTypes, "identifier"]
const learned = { seed: 3, rareThreshold: 5, learnFromValues: true }
const notLearned = { ...learned, learnFromValues: false }

describe("a plan holds no real value", () => {
  it.each(kinds)("%s: the serialised plan contains none of the column's values", (kind) => {
    const real = realColumn(kind, 300, 21)
    const { plan } = planFakeColumn({ name: "column", type: real.type, kind, values: real.values }, learned)
    const json = JSON.stringify(Schema.encodeSync(FakePlan)(plan))
    expect(real.values.filter((value) => json.includes(value))).toEqual([])
  })

  it.each(kinds)("%s: with learnFromValues false, two different real columns give the same plan", (kind) => {
    const first = realColumn(kind, 300, 1)
    const second = realColumn(kind, 120, 2)
    const planOf = (values: ReadonlyArray<string | null>) => planFakeColumn({ name: "column", type: first.type, kind, values }, notLearned).plan
    const a = planOf(first.values)
    const b = planOf([...second.values, null, null])
    expect(a).toEqual(b)
    expect(a.missingRate).toBe(0)
    expect(a.realRows).toBe(0)
  })

  it.each(kinds)("%s: with learnFromValues false, no fake is still a real value (the filter is kept)", (kind) => {
    const real = realColumn(kind, 300, 4)
    const { plan, realValues } = planFakeColumn({ name: "column", type: real.type, kind, values: real.values }, notLearned)
    const realKeys = new Set(real.values.map((value) => fakeValueKey(plan, value)))
    const fakes = fakeColumn(plan, 500, 8, realValues)
    expect(fakes.filter((fake) => fake !== null && realKeys.has(fakeValueKey(plan, fake)))).toEqual([])
  })

  it("plans decode with their schema (what the model artefact stores)", () => {
    for (const kind of kinds) {
      const real = realColumn(kind, 200, 6)
      const { plan } = planFakeColumn({ name: "column", type: real.type, kind, values: real.values }, learned)
      expect(Schema.decodeUnknownSync(FakePlan)(JSON.parse(JSON.stringify(plan)))).toEqual(plan)
    }
  })
})

describe("no fake is a real value, checked rather than hoped", () => {
  it("holds for any real SSN column, in either layout", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 20, max: 300 }), fc.boolean(), (seed, rows, dashed) => {
        const draws = makeDraws(seed)
        const values = Array.from({ length: rows }, () => ssn(draws, dashed))
        const { plan, realValues } = planFakeColumn({ name: "ssn", type: "string", kind: "social_security_number", values }, learned)
        const real = new Set(values.map((value) => value.replace(/-/g, "")))
        return fakeColumn(plan, 300, seed, realValues).every((fake) => fake !== null && !real.has(fake.replace(/-/g, "")))
      }),
      { numRuns: 30 }
    )
  })

  it("holds for any small integer key space (fresh keys only, distinct)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 2000 }), (count, rows) => {
        const values = Array.from({ length: count }, (_, index) => String(index + 1))
        const { plan, realValues } = planFakeColumn({ name: "id", type: "integer", kind: "identifier", values }, learned)
        const fakes = fakeColumn(plan, rows, count, realValues)
        const numbers = fakes.map(Number)
        return new Set(fakes).size === rows && numbers.every((number) => Number.isSafeInteger(number) && number > count)
      }),
      { numRuns: 30 }
    )
  })

  it("holds for later requests too: the filter survives its JSON (the separate blob)", () => {
    const real = realColumn("email_address", 400, 12)
    const { plan, realValues } = planFakeColumn({ name: "email", type: "string", kind: "email_address", values: real.values }, learned)
    const restored = keyedBloomFromJSON(JSON.parse(JSON.stringify(realValues.toJSON())))
    const realKeys = new Set(real.values.map((value) => value.toLowerCase()))
    for (const seed of [1, 2, 3]) {
      expect(fakeColumn(plan, 500, seed, restored).filter((fake) => fake !== null && realKeys.has(fake.toLowerCase()))).toEqual([])
    }
  })

  it("a large column learns its formats from a sample but filters every real value", () => {
    const draws = makeDraws(31)
    const values = Array.from({ length: 60_000 }, () => ssn(draws, true))
    const { plan, realValues } = planFakeColumn({ name: "ssn", type: "string", kind: "social_security_number", values }, learned)
    expect(plan.generator._tag === "checked" && plan.generator.formats.reduce((sum, format) => sum + format.rows, 0)).toBe(20_000)
    expect(plan.realRows).toBe(60_000)
    expect(values.filter((value) => !realValues.mightContain(fakeValueKey(plan, value)))).toEqual([])
  })

  it("names of a distinct column stay distinct while the name lists last, then repeat rather than fail", () => {
    const firstNames = ["Anna", "Bernd", "Clara", "Dieter", "Emma", "Felix", "Greta", "Hans", "Ida", "Jonas", "Karl", "Lena"]
    const { plan, realValues } = planFakeColumn({ name: "first", type: "string", kind: "person_name", values: firstNames }, { ...learned, rareThreshold: 1 })
    expect(plan.unique).toBe(true)
    const fakes = fakeColumn(plan, 20_000, 1, realValues)
    expect(fakes.filter((fake) => fake !== null && firstNames.includes(fake))).toEqual([])
    const distinct = new Set(fakes).size
    expect(distinct).toBeGreaterThan(500)
    expect(distinct).toBeLessThan(20_000)
  })

  it("fakes of personal kinds are distinct without learning (dp-ctgan), names included", () => {
    for (const kind of ["person_name", "email_address", "social_security_number"] as const) {
      const { plan } = planFakeColumn({ name: kind, type: "string", kind, values: ["x", "x"] }, { ...learned, learnFromValues: false })
      expect(plan.unique, kind).toBe(true)
    }
  })

  it("a format too small for distinct fresh values fails naming the column, never a value", () => {
    const values = Array.from({ length: 26 }, (_, index) => `WARD-${String.fromCharCode(65 + index)}`)
    const { plan, realValues } = planFakeColumn({ name: "ward code", type: "string", kind: "identifier", values }, { ...learned, rareThreshold: 1 })
    expect(() => fakeColumn(plan, 100, 1, realValues)).toThrowError(/ward code/)
    try {
      fakeColumn(plan, 100, 1, realValues)
    } catch (error) {
      const message = (error as Error).message
      expect(values.filter((value) => message.includes(value))).toEqual([])
    }
  })
})

describe("fakes are reproducible from the seed", () => {
  it.each(kinds)("%s: same seed, same fakes; another seed, other fakes", (kind) => {
    const real = realColumn(kind, 200, 14)
    const { plan, realValues } = planFakeColumn({ name: "column", type: real.type, kind, values: real.values }, learned)
    const first = fakeColumn(plan, 300, 42, realValues)
    expect(fakeColumn(plan, 300, 42, realValues)).toEqual(first)
    const other = fakeColumn(plan, 300, 43, realValues)
    expect(other.filter((value, index) => value === first[index]).length).toBeLessThan(first.length / 2)
  })

  it("a column's fakes do not depend on other columns: the stream is the seed and the column's name", () => {
    const real = realColumn("social_security_number", 200, 14)
    const { plan, realValues } = planFakeColumn({ name: "ssn", type: "string", kind: "social_security_number", values: real.values }, learned)
    const renamed = { ...plan, column: "ssn_2" }
    expect(fakeColumn(renamed, 100, 42, realValues)).not.toEqual(fakeColumn(plan, 100, 42, realValues))
  })
})
