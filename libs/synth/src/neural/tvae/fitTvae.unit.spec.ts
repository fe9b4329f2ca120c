import { describe, expect, it } from "vitest"
import { qualityReport } from "../../quality/index.ts"
import type { CategoricalColumn, ContinuousColumn, SynthTable } from "../../table.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { fitTvae, TvaeFitError } from "./index.ts"
import { GROUP_A_SHARE, twoModeTable } from "./testing/twoModeTable.ts"

const column = <K extends "continuous" | "categorical">(table: SynthTable, name: string, kind: K) => {
  const found = table.columns.find((candidate) => candidate.name === name)
  if (found?.kind !== kind) throw new Error(`no ${kind} column ${name}`)
  return found as K extends "continuous" ? ContinuousColumn : CategoricalColumn
}

/** Share of all rows whose amount is below 0, and of group "a" rows among them, and group "a"'s share. */
const modeShares = (table: SynthTable) => {
  const group = column(table, "group", "categorical")
  const amount = column(table, "amount", "continuous")
  let inA = 0, negativeInA = 0, negative = 0
  for (let i = 0; i < table.rowCount; i++) {
    const negativeAmount = amount.values[i]! < 0
    if (negativeAmount) negative++
    if (group.categories[group.codes[i]!] === "a") {
      inA++
      if (negativeAmount) negativeInA++
    }
  }
  return { aShare: inA / table.rowCount, negativeShareOfA: negativeInA / inA, negativeShare: negative / table.rowCount }
}

describe("TVAE training", () => {
  // 2,000 rows in batches of 100: 20 steps an epoch, so that 25 epochs (500 steps) fit in a unit test's time.
  const real = twoModeTable(2000, 1)
  const options = { seed: 3, batchSize: 100 }

  it.each([1, 2] as const)("learns the two modes of amount and which group each belongs to, and gets better with epochs (%i thread(s))", async (threads) => {
    const few = await fitTvae(real, { ...options, threads, epochs: 2 })
    const more = await fitTvae(real, { ...options, threads, epochs: 25 })
    const fewSample = few.sample(real.rowCount, 11)
    const moreSample = more.sample(real.rowCount, 11)

    const realShares = modeShares(real)
    const learned = modeShares(moreSample)
    // The decoder's association, read by its likeliest outputs: group "a" decodes to amount's negative mode.
    const likeliest = modeShares(more.sampleByArgmax(real.rowCount, 11))
    expect(realShares.aShare).toBeCloseTo(GROUP_A_SHARE, 1)
    expect(likeliest.negativeShareOfA).toBeGreaterThan(0.85)
    // Drawn, the group is sometimes not the one the decoder thinks likeliest for the amount it decodes: the price of
    // drawing categories at this length (sampleTvae.ts); 0.78 here, 0.96 after 100 epochs.
    expect(learned.negativeShareOfA).toBeGreaterThan(0.7)
    // Both modes, in roughly the real proportions (TVAE under-samples the smaller one a little at this length).
    expect(Math.abs(learned.negativeShare - realShares.negativeShare)).toBeLessThan(0.1)
    expect(Math.abs(learned.aShare - realShares.aShare)).toBeLessThan(0.15)

    const fewQuality = qualityReport(real, fewSample).score!
    const moreQuality = qualityReport(real, moreSample).score!
    expect(moreQuality).toBeGreaterThan(fewQuality + 0.1)
    expect(more.lossHistory).toHaveLength(25)
    expect(more.lossHistory.at(-1)!).toBeLessThan(more.lossHistory[0]!)
  }, 120_000)

  it("reproduces a training and its samples from the seed, and a different seed gives others", async () => {
    const small = twoModeTable(400, 2)
    const train = (seed: number) => fitTvae(small, { seed, epochs: 2, batchSize: 100, compressDims: [32], decompressDims: [32], embeddingDim: 16 })
    const [first, second, other] = [await train(5), await train(5), await train(6)]
    expect(second.lossHistory).toEqual(first.lossHistory)
    expect(second.sample(300, 9)).toEqual(first.sample(300, 9))
    expect(first.sample(300, 9)).not.toEqual(first.sample(300, 10))
    expect(other.sample(300, 9)).not.toEqual(first.sample(300, 9))
  })

  it("keeps the tensor count flat across epochs and leaves only the decoder behind", async () => {
    const tf = await startWasmBackend()
    const before = tf.memory().numTensors
    const counts: Array<number> = []
    const progress: Array<number> = []
    const model = await fitTvae(twoModeTable(300, 4), {
      seed: 1,
      epochs: 3,
      batchSize: 128,
      onEpoch: (epoch, { loss }) => {
        expect(Number.isFinite(loss)).toBe(true)
        counts.push(epoch, tf.memory().numTensors)
      },
      onProgress: (fraction) => progress.push(fraction)
    })
    expect(counts[0]).toBe(1)
    expect(counts[3]).toBe(counts[1])
    expect(counts[5]).toBe(counts[1])
    // 2 steps an epoch (300 rows: two full batches of 128; the other 44 wait for the next shuffle); progress rises to 1.
    expect(progress).toHaveLength(6)
    expect(progress.at(-1)).toBe(1)
    // What stays: the decoder's two hidden layers and output (weight and bias each) and σ.
    expect(tf.memory().numTensors - before).toBe(7)
    model.sample(1000, 1)
    expect(tf.memory().numTensors - before).toBe(7)
    model.dispose()
    expect(tf.memory().numTensors).toBe(before)
  })

  it("refuses options it cannot train with, and a table with no rows", async () => {
    const table = twoModeTable(10, 1)
    await expect(fitTvae(table, { seed: 1, epochs: 1, batchSize: 0 })).rejects.toBeInstanceOf(TvaeFitError)
    await expect(fitTvae(table, { seed: 1, epochs: 1.5, batchSize: 10 })).rejects.toThrow(/epochs/)
    await expect(fitTvae({ rowCount: 0, columns: table.columns }, { seed: 1, epochs: 1, batchSize: 10 })).rejects.toThrow(/no rows/)
  })
})
