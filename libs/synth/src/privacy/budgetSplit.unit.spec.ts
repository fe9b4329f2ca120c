import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  allocateDelta,
  allocatePreprocessing,
  budgetSplit,
  type ColumnKind,
  defaultDelta,
  deltaSplit,
  PREPROCESSING_SHARE,
  ROW_COUNT_SHARE
} from "./budgetSplit.ts"
import { assessDpConfiguration, dpTrainingPlan, trainingSpent } from "./dpPlan.ts"

const kinds = fc.array(fc.constantFrom<ColumnKind>("continuous", "boolean", "string"), { minLength: 1, maxLength: 80 })
const epsilons = fc.double({ min: 1e-3, max: 1000, noNaN: true })

describe("the split of the budget", () => {
  it("gives the preprocessing its share and the training the rest, never more than the target together", () => {
    fc.assert(
      fc.property(epsilons, fc.integer({ min: 1, max: 100_000_000 }), kinds, (target, rows, columns) => {
        const split = budgetSplit(target)
        expect(split.preprocessing).toBe(target * PREPROCESSING_SHARE)
        expect(split.training).toBeGreaterThan(0)
        expect(split.preprocessing + split.training).toBeLessThanOrEqual(target)
        expect(split.preprocessing + split.training).toBeGreaterThan(target * (1 - 1e-12))

        // The preprocessing's releases, summed in either order, stay within its share and spend nearly all of it.
        const allocation = allocatePreprocessing(split.preprocessing, columns)
        expect(allocation.columns).toHaveLength(columns.length)
        expect(Math.abs(allocation.rowCount / (split.preprocessing * ROW_COUNT_SHARE) - 1)).toBeLessThan(1e-8)
        const forward = [allocation.rowCount, ...allocation.columns].reduce((sum, epsilon) => sum + epsilon, 0)
        const backward = [allocation.rowCount, ...allocation.columns].reduceRight((sum, epsilon) => sum + epsilon, 0)
        for (const total of [forward, backward]) {
          expect(total).toBeLessThanOrEqual(split.preprocessing)
          expect(total).toBeGreaterThan(split.preprocessing * (1 - 1e-8))
        }

        // δ: half to DP-SGD, half shared by the string columns; the total below 1/(10·rows).
        const delta = deltaSplit(rows)
        expect(delta.total).toBe(defaultDelta(rows))
        expect(delta.total).toBeLessThan(1 / rows)
        expect(delta.preprocessing + delta.training).toBeLessThanOrEqual(delta.total)
        const deltas = allocateDelta(delta.preprocessing, columns)
        expect(deltas.reduce((sum, share) => sum + share, 0)).toBeLessThanOrEqual(delta.preprocessing)
        columns.forEach((kind, i) => (kind === "string" ? expect(deltas[i]).toBeGreaterThan(0) : expect(deltas[i]).toBe(0)))
      }),
      { numRuns: 2000 }
    )
  })

  it("composes to at most the target over many configurations: the preprocessing's share plus what DP-SGD spends", async () => {
    const configurations = fc.record({
      targetEpsilon: fc.double({ min: 0.05, max: 50, noNaN: true }),
      rows: fc.integer({ min: 20, max: 2_000_000 }),
      epochs: fc.integer({ min: 1, max: 1000 }),
      batchShare: fc.double({ min: 1e-4, max: 0.3, noNaN: true })
    })
    await fc.assert(
      fc.asyncProperty(configurations, async ({ batchShare, epochs, rows, targetEpsilon }) => {
        const batchSize = Math.max(10, Math.round((rows * batchShare) / 10) * 10)
        const config = { rows, epochs, batchSize, targetEpsilon }
        const plan = await Effect.runPromise(dpTrainingPlan(config))
        const assessment = await Effect.runPromise(assessDpConfiguration({ ...config, maxBatchSize: 10_000 }))
        expect(assessment.noiseMultiplier).toBe(plan.noiseMultiplier)
        if (plan.noiseMultiplier === null) return
        const training = await Effect.runPromise(trainingSpent(plan, plan.noiseMultiplier, plan.steps))
        expect(training).toBeLessThanOrEqual(plan.budget.training)
        expect(plan.budget.preprocessing + training).toBeLessThanOrEqual(targetEpsilon)
        if (assessment.valid) {
          expect(assessment.budget).toEqual({ preprocessing: plan.budget.preprocessing, training })
          expect(assessment.epsilon).toBe(assessment.budget!.preprocessing + assessment.budget!.training)
          expect(assessment.epsilon!).toBeLessThanOrEqual(targetEpsilon)
        } else {
          expect([assessment.epsilon, assessment.budget]).toEqual([null, null])
        }
      }),
      { numRuns: 60 }
    )
  }, 120_000)
})
