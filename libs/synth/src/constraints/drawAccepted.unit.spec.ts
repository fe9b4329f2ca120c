import { describe, expect, it } from "vitest"
import { makeRandom } from "../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthTable } from "../table.ts"
import { drawAccepted, rejectionBudget } from "./drawAccepted.ts"
import type { Condition, Constraint } from "./rules.ts"

/** A stand-in model: x uniform on 0..999, a colour (red one time in `redOneIn`), reproducible per round. */
const model = (redOneIn: number) => {
  const calls: Array<{ count: number; round: number }> = []
  const draw = (count: number, round: number, onDrawn?: (rowsDrawn: number) => void): SynthTable => {
    calls.push({ count, round })
    onDrawn?.(count)
    const random = makeRandom(round + 1)
    const x: ContinuousColumn = { kind: "continuous", name: "x", type: "integer", values: Float64Array.from({ length: count }, () => random.integer(1000)), missing: null, sourceFormat: null }
    // Each batch lists its categories in its own order, as a decoder does.
    const colour: CategoricalColumn = {
      kind: "categorical",
      name: "colour",
      type: "string",
      categories: round % 2 === 0 ? ["blue", "red"] : ["red", "blue"],
      codes: Int32Array.from({ length: count }, () => (random.integer(redOneIn) === 0 ? (round % 2 === 0 ? 1 : 0) : (round % 2 === 0 ? 0 : 1)))
    }
    return { rowCount: count, columns: [x, colour] }
  }
  return { draw, calls }
}

const valuesOf = (table: SynthTable, name: string) => {
  const column = table.columns.find((candidate) => candidate.name === name)!
  return column.kind === "continuous" ? Array.from(column.values) : Array.from(column.codes, (code) => column.categories[code]!)
}

const red: Condition = { kind: "equals", column: "colour", value: "red" }

describe("drawAccepted", () => {
  it("takes the first batch as it is when every row meets the rules: one draw, the request's own seed", () => {
    const { calls, draw } = model(2)
    const outcome = drawAccepted({ rows: 300, draw, constraints: [{ type: "range", column: "x", min: 0, max: 999, strict: false }], conditions: [] })
    expect(outcome.ok && outcome.table.rowCount).toBe(300)
    expect(calls).toEqual([{ count: 300, round: 0 }])
  })

  it("draws more until exactly the rows asked for meet every rule, categories matched by label across batches", () => {
    const { calls, draw } = model(4)
    const constraints: ReadonlyArray<Constraint> = [{ type: "range", column: "x", min: 100, max: 599, strict: false }, { type: "unique", columns: ["x"] }]
    const progress: Array<number> = []
    const outcome = drawAccepted({ rows: 200, draw, constraints, conditions: [red], onProgress: (done) => progress.push(done) })
    if (!outcome.ok) throw new Error(outcome.refusal.message)
    expect(outcome.table.rowCount).toBe(200)
    expect(valuesOf(outcome.table, "colour").every((colour) => colour === "red")).toBe(true)
    const xs = valuesOf(outcome.table, "x") as Array<number>
    expect(xs.every((x) => x >= 100 && x <= 599)).toBe(true)
    expect(new Set(xs).size).toBe(200)
    expect(calls.length).toBeGreaterThan(1)
    expect(outcome.drawn).toBe(calls.reduce((sum, call) => sum + call.count, 0))
    // The first batch's rows count half while it is drawn; then the rows kept, never going back.
    expect(progress[0]).toBe(100)
    expect(progress.at(-1)).toBe(200)
    expect(progress.every((done, i) => i === 0 || done > progress[i - 1]!)).toBe(true)
  })

  it("refuses with the conditions' reason once the budget cannot find the rows, naming the rules rows broke", () => {
    const { draw } = model(1000)
    const outcome = drawAccepted({ rows: 300, draw, constraints: [], conditions: [red, { kind: "between", column: "x", min: 0, max: 9 }] })
    if (outcome.ok) throw new Error("expected a refusal")
    const { refusal } = outcome
    expect(refusal.reason).toBe("conditions_unmet")
    expect(refusal.budget).toBe(rejectionBudget(300))
    expect(refusal.kept).toBeLessThan(300)
    // It stops as soon as the share kept says the rest of the budget cannot be enough.
    expect(refusal.drawn).toBeLessThan(refusal.budget)
    expect(refusal.failures.map((failure) => failure.field)).toEqual(["conditions.colour", "conditions.x"])
    expect(refusal.message).toMatch(/^Only \d+ of the 300 rows asked for met the conditions after [\d,]+ draws, stopped early/)
    expect(refusal.message).toContain('conditions.colour (colour = "red")')
  })

  it("spends the whole budget while it still may succeed, and says constraints when only those broke", () => {
    const { draw } = model(2)
    // x in [0, 2] takes 3 of 1000 values, and unique: 3 rows at most, ever.
    const constraints: ReadonlyArray<Constraint> = [{ type: "range", column: "x", min: 0, max: 2, strict: false }, { type: "unique", columns: ["x"] }]
    const outcome = drawAccepted({ rows: 4, draw, constraints, conditions: [], budget: 100_000 })
    if (outcome.ok) throw new Error("expected a refusal")
    expect(outcome.refusal.reason).toBe("constraints_unmet")
    expect(outcome.refusal.kept).toBe(3)
    expect(outcome.refusal.drawn).toBe(100_000)
  })

  it("bounds the budget: 100 draws per row, 10,000 at least, 20 million at most", () => {
    expect([rejectionBudget(1), rejectionBudget(300), rejectionBudget(10_000_000)]).toEqual([10_000, 30_000, 20_000_000])
  })
})
