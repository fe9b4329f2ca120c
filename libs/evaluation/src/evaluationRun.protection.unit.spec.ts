import { holdoutRows } from "@synth/protect"
import { beforeAll, describe, expect, it } from "vitest"
import { evaluatedTables } from "./columns/evaluatedColumns.ts"
import { type EvaluationResults, evaluationRun } from "./evaluationRun.ts"
import { splitHoldout } from "./privacy/membership.ts"
import { customerColumns, customerTable, people, realCustomers } from "./privacy/testing/customers.ts"
import { quickEvaluation } from "./statistical/quickEvaluation.ts"
import { statisticalReport } from "./statistical/statisticalReport.ts"

const real = customerTable(realCustomers())
const heldOutRows = holdoutRows(real.rowCount, { share: 0.1, maxRows: 10_000 }, 7)
const options = { sampleSize: 10_000, mlUtility: null, seed: 1 } as const

/** A generator that learned the population, faked e-mails and SSNs (fresh ids) and dropped the names. */
const protectedOutput = customerTable(people(2000, 99, 100_000), ["name"])
const protectedColumns = customerColumns.map((column) => (column.name === "name" ? { ...column, handling: "drop" as const } : column))

/** The output: statistics of the population, but every name, e-mail and SSN a real customer's, and the one-row city in 8 rows. */
const copyingOutput = (() => {
  const members = realCustomers().filter((_, index) => !heldOutRows.includes(index))
  return customerTable(people(2000, 99, 100_000).map((person, index) => {
    const copied = members[index % members.length]!
    return { ...person, name: copied.name, email: copied.email, ssn: copied.ssn, city: index < 8 ? "Smallville" : person.city }
  }))
})()
const keptColumns = customerColumns.map((column) => (column.role === "direct_identifier" ? { ...column, handling: "keep" as const } : column))

describe("evaluationRun on a generator's protected output (faked, dropped columns, held-out rows)", () => {
  let results: EvaluationResults
  beforeAll(() => {
    results = evaluationRun(real, protectedOutput, null, { ...options, generatorPrivacy: { columns: protectedColumns, rareThreshold: 5, heldOutRows } })
  }, 120_000)

  it("scores quality on the learned columns only, as if the faked and dropped ones did not exist", () => {
    const learned = ["age", "income", "zip", "city", "born", "subscribed"]
    expect(results.statistical.columns.map(({ column }) => column)).toEqual(learned)
    expect(results.distributions.map(({ column }) => column)).toEqual(learned)
    const { members } = splitHoldout(real, heldOutRows)
    const tables = evaluatedTables(members, protectedOutput, protectedColumns)
    expect(results.statistical.quality.score).toBe(statisticalReport(tables.real, tables.synthetic).quality.score)
    expect(results.columnTreatments!.map(({ name, treatment }) => `${name}:${treatment}`)).toEqual([
      "name:dropped", "email:faked", "ssn:faked", "age:scored", "income:scored", "zip:scored", "city:scored", "born:scored", "subscribed:scored"
    ])
  })

  it("expects the dropped column to be missing and the faked ones to be present, so the structure is whole", () => {
    expect(results.diagnostic.properties.dataStructure.details).toMatchObject({ score: 1, missingColumns: [], extraColumns: [], typeMismatches: [] })
    expect(results.diagnostic.properties.dataValidity.details.map(({ column }) => column)).not.toContain("email")
    const note = results.summary.recommendations.find(({ columns }) => columns.includes("email"))!
    expect(note.message).toBe(
      "the quality, validity and ML utility figures leave out the columns email, ssn (faked: fresh values by design); name (dropped: not in the output); the privacy checks still look at them."
    )
  })

  it("runs the membership-inference attack on the rows held out at training, with its interval", () => {
    const attack = results.privacy.membershipInference!
    expect({ members: attack.members, nonMembers: attack.nonMembers }).toEqual({ members: 360, nonMembers: 40 })
    expect(attack.interval!.low).toBeLessThan(attack.auc)
    expect(attack.interval!.high).toBeGreaterThan(attack.auc)
    expect(results.rows).toEqual({ real: 360, synthetic: 2000, holdout: 40 })
  })

  it("passes every privacy check: nothing real in the faked columns, no rare value, no excess for members", () => {
    const { verdict, disclosure, attributeInference } = results.privacy
    expect(disclosure!.map(({ name, realValues, passed }) => [name, realValues, passed])).toEqual([
      ["name", 0, true], ["email", 0, true], ["ssn", 0, true], ["zip", 2000, true], ["city", 2000, true], ["born", expect.any(Number), true]
    ])
    expect(attributeInference!.map(({ sensitive, keys }) => [sensitive, keys])).toEqual([["subscribed", ["zip", "city", "born"]]])
    expect(verdict.checks.map(({ name, status }) => [name, status])).toEqual([
      ["identifier_disclosure", "passed"], ["quasi_identifier_disclosure", "passed"], ["attribute_inference", "passed"],
      ["membership_inference", "passed"], ["exact_copies", "passed"]
    ])
    expect(verdict.safeToShare).toBe(true)
  })

  it("scores a quick evaluation on the learned columns too", () => {
    const quick = quickEvaluation(real, protectedOutput, { columns: protectedColumns })
    expect(quick.columns.map(({ column }) => column)).toEqual(["age", "income", "zip", "city", "born", "subscribed"])
    expect(quick.diagnostic.properties.dataStructure.score).toBe(1)
    expect(quick.columnTreatments).toHaveLength(9)
    // Without roles the faked e-mails and SSNs count as columns whose categories all differ (as evaluations always did).
    const withNames = customerTable(people(2000, 99, 100_000))
    const unaware = quickEvaluation(real, withNames)
    expect(unaware.columns.map(({ column }) => column)).toContain("email")
    expect(unaware.overallScore!).toBeLessThan(quickEvaluation(real, withNames, { columns: customerColumns }).overallScore!)
  })
})

describe("evaluationRun on the issue's output: good row-level figures, every identifier real", () => {
  let results: EvaluationResults
  beforeAll(() => {
    results = evaluationRun(real, copyingOutput, null, { ...options, generatorPrivacy: { columns: keptColumns, rareThreshold: 5, heldOutRows } })
  }, 120_000)

  it("sees what the distances cannot: the row-level figures look fine while the verdict fails", () => {
    expect(results.privacy.exactCopies.rows).toBe(0)
    expect(results.privacy.newRowSynthesis.score).toBe(1)
    expect(results.privacy.verdict.safeToShare).toBe(false)
    // The kept identifiers are learned columns, so the copied ones also bring the training rows closer to the output.
    expect(results.privacy.verdict.failing).toEqual(["identifier_disclosure", "quasi_identifier_disclosure", "membership_inference"])
    expect(results.privacy.membershipInference!.auc).toBeGreaterThan(0.6)
  })

  it("names every copied identifier with its share, and the one-row city", () => {
    const byName = new Map(results.privacy.disclosure!.map((column) => [column.name, column]))
    for (const name of ["name", "email", "ssn"]) expect(byName.get(name)).toMatchObject({ realShare: 1, passed: false })
    expect(byName.get("city")).toMatchObject({ rareValues: 8, rareShare: 8 / 2000, passed: false })
    const failing = results.privacy.verdict.checks.find(({ name }) => name === "identifier_disclosure")!
    expect(failing.columns).toEqual(["name", "email", "ssn"])
    expect(failing.finding).toContain("email (keep): 100.0 % of 2000 output values are real (2000)")
    const first = results.summary.recommendations[0]!
    expect(first).toMatchObject({ area: "privacy", severity: "high", columns: ["name"] })
  })
})
