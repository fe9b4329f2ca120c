import * as tf from "@tensorflow/tfjs"
import { Effect, Result } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { assessDpConfiguration, type CountRelease, deltaSplit, sampleRateOf } from "../../privacy/index.ts"
import { makeRandom } from "../../random.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { poissonSample } from "./dpCtganStep.ts"
import { ctganFromJSON, type CtganModel, fitCtgan, InvalidEpsilon, PrivacyBudgetExceeded } from "./index.ts"
import { epsilonAfter } from "./privacyPlan.ts"
import { twoModeTable } from "./testing/twoModeTable.ts"

const small = { embeddingDim: 16, generatorDims: [32, 32], discriminatorDims: [32, 32] } as const
const table = twoModeTable(1000, 8)

let model: CtganModel
const memoryAfterEpoch: Array<number> = []

beforeAll(async () => {
  await startWasmBackend()
  model = await fitCtgan(table, {
    ...small,
    seed: 4,
    epochs: 2,
    batchSize: 100,
    dp: { targetEpsilon: 5 },
    onEpoch: () => memoryAfterEpoch.push(tf.memory().numTensors)
  })
}, 60_000)

/** The row count the model's preprocessing released: what its δ, q and steps were planned for. */
const releasedRows = (trained: CtganModel) =>
  Math.max(1, (trained.privacy!.releases!.find((release) => release._tag === "count") as CountRelease).count)

describe("DP-CTGAN", () => {
  it("trains with the DP configuration check's plan for its released row count and spends no more than the target", async () => {
    const rows = releasedRows(model)
    expect(rows).not.toBe(1000)
    const assessment = await Effect.runPromise(
      assessDpConfiguration({ rows, epochs: 2, batchSize: 100, targetEpsilon: 5, maxBatchSize: 1000 })
    )
    const privacy = model.privacy!
    expect(privacy.noiseMultiplier).toBe(assessment.noiseMultiplier)
    expect(privacy.steps).toBe(assessment.steps)
    expect(privacy.budget).toEqual(assessment.budget)
    expect(privacy.epsilonSpent).toBe(assessment.epsilon)
    expect(privacy.epsilonSpent).toBe(privacy.budget!.preprocessing + privacy.budget!.training)
    expect(privacy.epsilonSpent).toBeLessThanOrEqual(5)
    expect(privacy.epsilonSpent).toBeGreaterThan(4.9)
    // δ: DP-SGD's half and what the string columns' partition selections spent, within the check's total.
    const releasesDelta = privacy.releases!.reduce((sum, release) => sum + release.delta, 0)
    expect(privacy.delta).toBe(releasesDelta + deltaSplit(rows).training)
    expect(privacy.delta).toBeLessThanOrEqual(assessment.delta)
    expect(privacy.delta).toBeGreaterThan(assessment.delta * (1 - 1e-8))
    expect(privacy.delta).toBeLessThan(1 / rows)
    expect(privacy).toMatchObject({ targetEpsilon: 5, maxGradNorm: 1, stoppedEarly: false })
    expect(model.lossHistory).toHaveLength(2)
    expect(memoryAfterEpoch[1]).toBe(memoryAfterEpoch[0])
    const sample = model.sample(150, 2)
    expect(sample.rowCount).toBe(150)
  })

  it("stops before the step that would spend more than the training's share, and says so", async () => {
    // σ = 0.8 at q ≈ 0.1 spends ε = 3.75 within a few steps; ten epochs would take about 100.
    const stopped = await fitCtgan(table, { ...small, seed: 4, epochs: 10, batchSize: 100, dp: { targetEpsilon: 5, noiseMultiplier: 0.8 } })
    const privacy = stopped.privacy!
    expect(privacy.stoppedEarly).toBe(true)
    expect(privacy.steps).toBeGreaterThan(0)
    expect(privacy.steps).toBeLessThan(90)
    expect(privacy.epsilonSpent).toBeLessThanOrEqual(5)
    const rows = releasedRows(stopped)
    const mechanism = { delta: deltaSplit(rows), noiseMultiplier: 0.8, sampleRate: sampleRateOf(100, rows) }
    expect(epsilonAfter(mechanism, privacy.steps)).toBe(privacy.budget!.training)
    expect(privacy.budget!.preprocessing + epsilonAfter(mechanism, privacy.steps + 1)).toBeGreaterThan(5)
    // The epoch in which it stopped is recorded, and none after it.
    expect(stopped.lossHistory).toHaveLength(Math.ceil(privacy.steps / 10))
    stopped.dispose()
  }, 60_000)

  it("refuses a target that is not a finite number above 0 as an invalid epsilon", async () => {
    for (const targetEpsilon of [0, -1, Number.NaN, Infinity]) {
      const refusal = fitCtgan(table, { ...small, seed: 1, epochs: 1, batchSize: 100, dp: { targetEpsilon } })
      await expect(refusal).rejects.toBeInstanceOf(InvalidEpsilon)
      await expect(refusal).rejects.toThrow(/invalid epsilon/)
    }
  })

  it("refuses a budget no noise can keep, as the DP configuration check does", async () => {
    const config = { rows: 1000, epochs: 50, batchSize: 100, targetEpsilon: 0.1 }
    const assessment = await Effect.runPromise(assessDpConfiguration({ ...config, maxBatchSize: 1000 }))
    expect(assessment.valid).toBe(false)
    expect(assessment.reason).toMatch(/^privacy budget exceeded: no noise multiplier up to 1e6/)
    const refusal = fitCtgan(table, { ...small, seed: 1, epochs: 50, batchSize: 100, dp: { targetEpsilon: 0.1 } })
    await expect(refusal).rejects.toBeInstanceOf(PrivacyBudgetExceeded)
    await expect(refusal).rejects.toThrow(/^privacy budget exceeded: no noise multiplier up to 1e6/)
  })

  it("keys every draw with a secret when given one: the same secret and seed give the same model, another secret another", async () => {
    const options = { ...small, seed: 4, epochs: 1, batchSize: 100, dp: { targetEpsilon: 5, noiseSecret: "kept by the service" } }
    const keyed = await fitCtgan(table, options)
    const again = await fitCtgan(table, options)
    const otherSecret = await fitCtgan(table, { ...options, dp: { ...options.dp, noiseSecret: "another" } })
    const seedOnly = await fitCtgan(table, { ...options, dp: { targetEpsilon: 5 } })
    expect(again.toJSON()).toEqual(keyed.toJSON())
    expect(otherSecret.privacy!.releases).not.toEqual(keyed.privacy!.releases)
    expect(seedOnly.privacy!.releases).not.toEqual(keyed.privacy!.releases)
    expect(otherSecret.toJSON().generator).not.toEqual(keyed.toJSON().generator)
    for (const trained of [keyed, again, otherSecret, seedOnly]) trained.dispose()
  }, 60_000)

  it("keeps what it spent in its artifact", async () => {
    const loaded = Result.getOrThrow(await ctganFromJSON(JSON.parse(JSON.stringify(model.toJSON()))))
    expect(loaded.privacy).toEqual(model.privacy)
    loaded.dispose()
  })
})

describe("Poisson sampling of the real rows", () => {
  it("takes each row independently with probability q", () => {
    const random = makeRandom(1)
    const rows = 1000
    const rate = 0.05
    const counts = new Float64Array(rows)
    const sizes: Array<number> = []
    for (let draw = 0; draw < 2000; draw++) {
      const picked = poissonSample(rows, rate, random)
      sizes.push(picked.length)
      expect(picked.every((row, i) => row >= 0 && row < rows && (i === 0 || row > picked[i - 1]!))).toBe(true)
      for (const row of picked) counts[row]! += 1
    }
    // Batch sizes are Binomial(1000, 0.05): mean 50, variance 47.5. Each row's count is Binomial(2000, 0.05): mean 100.
    const mean = sizes.reduce((sum, size) => sum + size, 0) / sizes.length
    const variance = sizes.reduce((sum, size) => sum + (size - mean) ** 2, 0) / (sizes.length - 1)
    expect(mean).toBeCloseTo(50, 0)
    expect(variance).toBeGreaterThan(40)
    expect(variance).toBeLessThan(55)
    const firstHalf = counts.subarray(0, 500).reduce((sum, count) => sum + count, 0) / 500
    const secondHalf = counts.subarray(500).reduce((sum, count) => sum + count, 0) / 500
    expect(Math.abs(firstHalf - 100)).toBeLessThan(2)
    expect(Math.abs(secondHalf - 100)).toBeLessThan(2)
    expect(poissonSample(rows, 1, random)).toHaveLength(rows)
  })
})
