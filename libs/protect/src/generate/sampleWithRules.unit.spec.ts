import {
  constrainedModel,
  constraintBreaks,
  fitConstraintTransforms,
  fitGaussianCopula,
  fixedCombinationGroups,
  type GenerationRules,
  makeRandom,
  type SynthTable,
  type TrainedModel,
  validateRulesOnTable
} from "@synth/synth"
import { formKeys } from "@synth/tabular"
import { describe, expect, it } from "vitest"
import { keyedBloomFilter } from "../keyedBloom.ts"
import type { ScanSummary } from "../roles/resolveColumnRoles.ts"
import { columnFromText, columnText } from "../table/columnText.ts"
import type { Fakers } from "./Fakers.ts"
import { prepareTraining } from "./prepareTraining.ts"
import { defaultProtectionSettings } from "./ProtectionPlan.ts"
import { drawPublishedRows, sampleProtected } from "./sampleProtected.ts"
import { sampleWithRules } from "./sampleWithRules.ts"

/** Fakes drawn from a pool of `pool` ids: they repeat, as name lists that run out do. */
const poolFakers = (pool: number): Fakers => ({
  plan: (input) => {
    const realValues = keyedBloomFilter(input.values.length, 1e-3, "test")
    for (const value of input.values) if (value !== null) realValues.add(value)
    return { plan: { pool }, realValues }
  },
  fake: (_plan, rows, seed) => {
    const random = makeRandom(seed)
    return Array.from({ length: rows }, () => `E${String(random.integer(pool)).padStart(4, "0")}`)
  }
})

const rows = 600
const random = makeRandom(21)
const places = [["Paris", "France"], ["Lyon", "France"], ["Berlin", "Germany"], ["Rome", "Italy"]] as const
const placeOf = (row: number) => (row % 199 === 5 ? ["Milan", "Italy"] : places[random.integer(places.length)]!)
const placeRows = Array.from({ length: rows }, (_, row) => placeOf(row))
// Costs in cents written with 2 decimals and prices with 1: a cost rounds to a grid the price does not share.
const costs = Array.from({ length: rows }, () => 5 + random.integer(9_000) / 100)
const orders: SynthTable = {
  rowCount: rows,
  columns: [
    columnFromText("employee_id", "string", Array.from({ length: rows }, (_, row) => `real-${row}`)),
    columnFromText("cost", "float", costs.map((cost) => cost.toFixed(2))),
    columnFromText("price", "float", costs.map((cost) => (cost + random.integer(300) / 10 + 0.1).toFixed(1))),
    columnFromText("city", "string", placeRows.map(([city]) => city)),
    columnFromText("country", "string", placeRows.map(([, country]) => country)),
    columnFromText("rating", "integer", Array.from({ length: rows }, () => String(1 + random.integer(5))))
  ],
  form: { table: {}, columns: { cost: { [formKeys.maxDecimals]: "2" }, price: { [formKeys.maxDecimals]: "1" } } }
}
const realPairs = new Set(placeRows.map((pair) => pair.join("/")))

const scan: ScanSummary = { findings: [], identifiers: ["employee_id"], quasi_identifiers: [] }

const rulesOf = (request: { constraints?: unknown; conditions?: unknown }): GenerationRules => {
  const validated = validateRulesOnTable(request, orders)
  if (!validated.ok) throw new Error(JSON.stringify(validated.problems))
  return validated.rules
}

/** The worker's training, in small: protections (fixed combinations protected together), transforms, a copula. */
const generator = (rules: GenerationRules, fakers: Fakers = poolFakers(1_000_000)) => {
  const prepared = prepareTraining({
    table: orders,
    scan,
    overrides: {},
    settings: defaultProtectionSettings,
    seed: 5,
    differentiallyPrivate: false,
    protectTogether: fixedCombinationGroups(rules.constraints)
  }, fakers)
  const transforms = fitConstraintTransforms(rules.constraints, prepared.learned)
  const inner: TrainedModel = { format: "synth.gaussian-copula", formatVersion: 1, ...fitGaussianCopula(transforms.forward(prepared.learned), { seed: 5 }) }
  return { prepared, model: constrainedModel(inner, transforms), fakers }
}

const pairsOf = (table: SynthTable) => {
  const cities = columnText(table.columns.find((column) => column.name === "city")!)
  const countries = columnText(table.columns.find((column) => column.name === "country")!)
  return new Set(cities.map((city, row) => `${city}/${countries[row]}`))
}

describe("sampleWithRules", () => {
  it("without rules is sampleProtected itself", () => {
    const { fakers, model, prepared } = generator({ constraints: [], conditions: [] })
    const ruled = sampleWithRules(prepared.plan, model, prepared.filters, fakers, 300, 9, { constraints: [], conditions: [] })
    expect(ruled.ok && ruled.sample).toEqual(sampleProtected(prepared.plan, model, prepared.filters, fakers, 300, 9))
  })

  it("keeps an inequality and a range through value protection's clamps and the written decimals", () => {
    const rules = rulesOf({ constraints: [{ type: "inequality", low: "cost", high: "price", strict: true }, { type: "range", column: "rating", min: 1, max: 5 }] })
    const { fakers, model, prepared } = generator(rules)
    // The transforms alone carry the constraints through the protections: clamping both columns to their bounds keeps
    // their order (each bound is an order statistic, and the data's order statistics keep the order of its rows), and a
    // price is restored on its own grid at or above the cost. The check after the protections is the guarantee.
    const published = drawPublishedRows(prepared.plan, model, prepared.filters, 5_000, 9).table
    expect(constraintBreaks(published, rules.constraints)).toEqual([0, 0])
    const ruled = sampleWithRules(prepared.plan, model, prepared.filters, fakers, 2_000, 9, rules)
    if (!ruled.ok) throw new Error(ruled.refusal.message)
    expect(ruled.sample.table.rowCount).toBe(2_000)
    expect(constraintBreaks(ruled.sample.table, rules.constraints)).toEqual([0, 0])
  })

  it("publishes only the data's combinations, the rare ones protected as wholes", () => {
    const rules = rulesOf({ constraints: [{ type: "fixed_combinations", columns: ["city", "country"] }] })
    const { fakers, model, prepared } = generator(rules)
    expect([...pairsOf(prepared.learned)].every((pair) => realPairs.has(pair) && !pair.startsWith("Milan"))).toBe(true)
    const ruled = sampleWithRules(prepared.plan, model, prepared.filters, fakers, 3_000, 4, rules)
    if (!ruled.ok) throw new Error(ruled.refusal.message)
    expect([...pairsOf(ruled.sample.table)].sort()).toEqual(["Berlin/Germany", "Lyon/France", "Paris/France", "Rome/Italy"])
  })

  it("gives a faked identifier under a unique constraint fresh fakes where they repeat, and refuses when they run out", () => {
    const rules = rulesOf({ constraints: [{ type: "unique", columns: ["employee_id"] }] })
    const repeating = generator(rules, poolFakers(2_000))
    const ruled = sampleWithRules(repeating.prepared.plan, repeating.model, repeating.prepared.filters, repeating.fakers, 1_000, 3, rules)
    if (!ruled.ok) throw new Error(ruled.refusal.message)
    const ids = columnText(ruled.sample.table.columns[0]!)
    expect(new Set(ids).size).toBe(1_000)

    const scarce = generator(rules, poolFakers(500))
    const refused = sampleWithRules(scarce.prepared.plan, scarce.model, scarce.prepared.filters, scarce.fakers, 1_000, 3, rules)
    expect(refused.ok).toBe(false)
    if (!refused.ok) {
      expect(refused.refusal.reason).toBe("constraints_unmet")
      expect(refused.refusal.message).toMatch(/^constraint 0 \(unique employee_id\): \d+ rows still repeat an earlier row's values after 10 rounds of fresh fake values for employee_id/)
    }
  })

  it("steers a model that can be steered towards the conditions' categories, and still checks every row", () => {
    const rules = rulesOf({ conditions: { city: "Rome", rating: { min: 4 } } })
    const { fakers, model, prepared } = generator(rules)
    const steeredWith: Array<ReadonlyArray<{ column: string; label: string }>> = []
    const steerable: TrainedModel = {
      ...model,
      sampleConditioned: (count, seed, categories) => {
        steeredWith.push(categories)
        return model.sample(count, seed)
      }
    }
    const ruled = sampleWithRules(prepared.plan, steerable, prepared.filters, fakers, 200, 8, rules)
    if (!ruled.ok) throw new Error(ruled.refusal.message)
    expect(steeredWith[0]).toEqual([{ column: "city", label: "Rome" }])
    expect(new Set(columnText(ruled.sample.table.columns[3]!))).toEqual(new Set(["Rome"]))
    expect(columnText(ruled.sample.table.columns[5]!).every((rating) => Number(rating) >= 4)).toBe(true)
  })
})
