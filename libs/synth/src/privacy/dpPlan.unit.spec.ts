import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { budgetSplit, defaultDelta, PREPROCESSING_SHARE } from "./budgetSplit.ts"
import { assessDpConfiguration, type DpConfiguration, MAX_NOISE_PER_ROW, NOISY_NOISE_PER_ROW } from "./dpPlan.ts"
import { noiseMultiplierFor, privacySpent } from "./rdpAccountant.ts"

const assess = (config: Omit<DpConfiguration, "maxBatchSize">) => Effect.runPromise(assessDpConfiguration({ ...config, maxBatchSize: 10_000 }))

/** The noise per row the accountant needs for a configuration's training share (what the recommendations promise). */
const noisePerRow = (rows: number, epochs: number, batchSize: number, epsilon: number) => {
  const sampleRate = batchSize / rows
  const training = budgetSplit(epsilon).training
  const sigma = noiseMultiplierFor({ epsilon: training, delta: defaultDelta(rows) / 2, sampleRate, steps: Math.floor(epochs / sampleRate) })
  return sigma! / batchSize
}

describe("assessDpConfiguration", () => {
  it("accepts a balanced configuration on a mid-sized dataset and accounts its training share as Opacus would", async () => {
    const assessment = await assess({ rows: 53_940, epochs: 50, batchSize: 500, targetEpsilon: 5 })
    expect(assessment.valid).toBe(true)
    expect(assessment.delta).toBe(1 / 539_400)
    expect(assessment.sampleRate).toBeCloseTo(500 / 53_940, 12)
    expect(assessment.steps).toBe(Math.floor(50 / (500 / 53_940)))
    // DP-SGD gets the target less the preprocessing's share, at half of δ (the other half is the preprocessing's).
    const training = 5 * (1 - PREPROCESSING_SHARE)
    const trainingDelta = 1 / 539_400 / 2
    expect(assessment.noiseMultiplier).toBe(noiseMultiplierFor({ epsilon: training, delta: trainingDelta, sampleRate: 500 / 53_940, steps: assessment.steps }))
    const spent = privacySpent({ noiseMultiplier: assessment.noiseMultiplier!, sampleRate: assessment.sampleRate, steps: assessment.steps }, trainingDelta)
    expect(spent.epsilon).toBeLessThanOrEqual(training)
    expect(assessment.budget).toEqual({ preprocessing: 5 * PREPROCESSING_SHARE, training: spent.epsilon })
    expect(assessment.epsilon).toBe(5 * PREPROCESSING_SHARE + spent.epsilon)
    expect(assessment.epsilon!).toBeLessThanOrEqual(5)
    expect(assessment.epsilon!).toBeGreaterThan(4.98)
    expect([assessment.privacyLevel, assessment.expectedUtility]).toEqual(["balanced", "85-90%"])
    expect(assessment.warnings).toEqual([])
    expect(assessment.recommendations).toEqual([])
    expect(assessment.reason).toBeNull()
  })

  it("keeps δ at most 1e-5 and below 1/n", () => {
    expect(defaultDelta(344)).toBe(1e-5)
    expect(defaultDelta(53_940)).toBe(1 / 539_400)
    expect(defaultDelta(1_000_000)).toBe(1e-7)
    expect(defaultDelta(1_000_000)).toBeLessThan(1 / 1_000_000)
  })

  it("warns about a noisy configuration and recommends epochs and a batch size that bring it back", async () => {
    const config = { rows: 4_454, epochs: 300, batchSize: 500, targetEpsilon: 5 }
    const assessment = await assess(config)
    expect(assessment.valid).toBe(true)
    expect(assessment.noisePerRow!).toBeGreaterThan(NOISY_NOISE_PER_ROW)
    expect(assessment.warnings.some((warning) => warning.includes("noise on each averaged gradient"))).toBe(true)
    const epochs = assessment.recommendedEpochs!
    const batchSize = assessment.recommendedBatchSize!
    expect(epochs).toBeLessThan(300)
    expect(batchSize % 10).toBe(0)
    expect(batchSize).toBeGreaterThan(500)
    // The recommendations do what they say, and are the tightest that do.
    expect(noisePerRow(config.rows, epochs, 500, 5)).toBeLessThanOrEqual(NOISY_NOISE_PER_ROW * 1.01)
    expect(noisePerRow(config.rows, epochs + 1, 500, 5)).toBeGreaterThan(NOISY_NOISE_PER_ROW * 0.99)
    expect(noisePerRow(config.rows, 300, batchSize, 5)).toBeLessThanOrEqual(NOISY_NOISE_PER_ROW * 1.01)
    expect(assessment.recommendations).toEqual([
      `Reduce epochs to ${epochs} or fewer to bring the noise per row down to ${NOISY_NOISE_PER_ROW}.`,
      `Increase batch_size to ${batchSize} or more to bring the noise per row down to ${NOISY_NOISE_PER_ROW}.`
    ])
  })

  it("says the budget is exceeded when the noise would drown training, with the reason and remedies", async () => {
    const assessment = await assess({ rows: 2_000, epochs: 1_000, batchSize: 100, targetEpsilon: 0.5 })
    expect(assessment.valid).toBe(false)
    expect(assessment.noisePerRow!).toBeGreaterThan(MAX_NOISE_PER_ROW)
    expect(assessment.epsilon).toBeNull()
    expect(assessment.budget).toBeNull()
    expect(assessment.reason).toMatch(/^privacy budget exceeded: /)
    expect([assessment.privacyLevel, assessment.expectedUtility]).toEqual(["high_privacy", "70-80%"])
    expect(assessment.recommendations.length).toBeGreaterThan(0)
    expect(assessment.warnings.some((warning) => warning.includes("2000 rows"))).toBe(false)
  })

  it("answers a tiny budget at a sampling rate near ½ (a million-term series per order) within a test's time", async () => {
    // Before the binomial coefficients were built incrementally this one configuration took minutes (a DoS on
    // POST /generate); the default test timeout is the guard.
    const assessment = await assess({ rows: 400, epochs: 300, batchSize: 200, targetEpsilon: 0.1 })
    expect(assessment.valid).toBe(false)
    expect(assessment.noiseMultiplier).toBeNull()
    expect(assessment.reason).toMatch(/^privacy budget exceeded: no noise multiplier up to 1e6/)
  })

  it("puts the target in the spec's bands", async () => {
    const level = async (targetEpsilon: number) => (await assess({ rows: 53_940, epochs: 10, batchSize: 500, targetEpsilon })).privacyLevel
    expect(await level(1)).toBe("high_privacy")
    expect(await level(5)).toBe("balanced")
    expect(await level(10)).toBe("high_utility")
  })
})
