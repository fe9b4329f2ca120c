import { describe, expect, it } from "vitest"
import { describeDuration, encodedWidth, estimateSeconds, type SpeedModelInput, type WidthColumn } from "./speedModel.ts"

const columns: ReadonlyArray<WidthColumn> = [
  { kind: "continuous", hasMissing: false },
  { kind: "continuous", hasMissing: true },
  { kind: "categorical", categories: 4 }
]

const job = (fields: Partial<SpeedModelInput>): SpeedModelInput => ({
  generator: "ctgan",
  trainingRows: 10_000,
  columns,
  numRows: 10_000,
  epochs: 300,
  batchSize: 500,
  ...fields
})

const increasing = (values: ReadonlyArray<number>) => values.every((value, i) => i === 0 || value > values[i - 1]!)

describe("encodedWidth", () => {
  it("gives a continuous column 11 slots, 13 with missing values", () => {
    expect(encodedWidth([{ kind: "continuous", hasMissing: false }])).toBe(11)
    expect(encodedWidth([{ kind: "continuous", hasMissing: true }])).toBe(13)
  })

  it("gives a categorical column one slot per category plus one, at most 301", () => {
    expect(encodedWidth([{ kind: "categorical", categories: 0 }])).toBe(1)
    expect(encodedWidth([{ kind: "categorical", categories: 2 }])).toBe(3)
    expect(encodedWidth([{ kind: "categorical", categories: 300 }])).toBe(301)
    expect(encodedWidth([{ kind: "categorical", categories: 50_000 }])).toBe(301)
  })

  it("adds up the columns, and is 0 for none", () => {
    expect(encodedWidth(columns)).toBe(11 + 13 + 5)
    expect(encodedWidth([])).toBe(0)
  })
})

describe("estimateSeconds", () => {
  it("grows with training rows, epochs and rows asked for, for every generator", () => {
    for (const generator of ["ctgan", "dp-ctgan", "tvae"] as const) {
      expect(increasing([1_000, 10_000, 100_000].map((trainingRows) => estimateSeconds(job({ generator, trainingRows }))))).toBe(true)
      expect(increasing([1, 10, 300].map((epochs) => estimateSeconds(job({ generator, epochs }))))).toBe(true)
      expect(increasing([1, 100_000, 10_000_000].map((numRows) => estimateSeconds(job({ generator, numRows }))))).toBe(true)
    }
    const copula = (fields: Partial<SpeedModelInput>) => estimateSeconds(job({ generator: "gaussian_copula", ...fields }))
    expect(increasing([1_000, 10_000, 100_000].map((trainingRows) => copula({ trainingRows })))).toBe(true)
    expect(increasing([1, 100_000, 10_000_000].map((numRows) => copula({ numRows })))).toBe(true)
  })

  it("grows with the table's width", () => {
    const wide = [...columns, { kind: "categorical", categories: 200 } as const]
    for (const generator of ["ctgan", "tvae", "gaussian_copula"] as const) {
      expect(estimateSeconds(job({ generator, columns: wide }))).toBeGreaterThan(estimateSeconds(job({ generator })))
    }
  })

  it("bounds the copula's fit past 100,000 training rows, and ignores epochs and batch size", () => {
    const copula = (fields: Partial<SpeedModelInput>) => estimateSeconds(job({ generator: "gaussian_copula", ...fields }))
    expect(copula({ trainingRows: 100_000 })).toBeGreaterThan(copula({ trainingRows: 99_000 }))
    expect(copula({ trainingRows: 5_000_000 })).toBe(copula({ trainingRows: 100_000 }))
    expect(copula({ epochs: 1, batchSize: 10 })).toBe(copula({ epochs: 10_000, batchSize: 10_000 }))
  })

  it("matches the measured copula coefficients: 1.3 s fixed, 1.4 µs per fitted cell, 0.4 µs per sampled cell", () => {
    const seconds = estimateSeconds(job({ generator: "gaussian_copula", trainingRows: 200_000, numRows: 1_000_000 }))
    expect(seconds).toBeCloseTo(1.3 + 1.4e-6 * 100_000 * 3 + 0.4e-6 * 1_000_000 * 3, 9)
  })

  it("counts at least one column and one step per epoch", () => {
    const none = estimateSeconds(job({ generator: "gaussian_copula", columns: [], trainingRows: 1_000, numRows: 0 }))
    expect(none).toBeCloseTo(1.3 + 1.4e-6 * 1_000, 9)
    expect(estimateSeconds(job({ trainingRows: 1 }))).toBe(estimateSeconds(job({ trainingRows: 500 })))
    // Full batches only: 999 rows are one batch of 500 an epoch, 1,000 rows two.
    expect(estimateSeconds(job({ trainingRows: 999 }))).toBe(estimateSeconds(job({ trainingRows: 500 })))
    expect(estimateSeconds(job({ trainingRows: 1_000 }))).toBeGreaterThan(estimateSeconds(job({ trainingRows: 999 })))
  })

  it("takes dp-ctgan (the direct step with per-sample clipping) 1.25 times ctgan's direct step, and tvae a quarter of it", () => {
    const training = (generator: SpeedModelInput["generator"]) => estimateSeconds(job({ generator, numRows: 0 })) - 1
    expect(training("dp-ctgan")).toBeGreaterThan(training("ctgan"))
    expect(training("dp-ctgan") / training("ctgan")).toBeCloseTo(0.075 / 0.06, 9)
    expect(training("tvae")).toBeLessThan(training("ctgan"))
    expect(training("tvae") / training("ctgan")).toBeCloseTo(0.015 / 0.06, 9)
  })

  it("costs a ctgan step 0.06 s at batch 500 and width 160", () => {
    const width160 = Array.from({ length: 10 }, () => ({ kind: "categorical", categories: 15 }) as const)
    expect(encodedWidth(width160)).toBe(160)
    expect(estimateSeconds(job({ columns: width160, trainingRows: 5_000, epochs: 2, numRows: 0 }))).toBeCloseTo(1 + 0.06 * 10 * 2, 9)
  })
})

describe("describeDuration", () => {
  it("says about 1 second below 1.5 seconds", () => {
    expect(describeDuration(0)).toBe("about 1 second")
    expect(describeDuration(1.49)).toBe("about 1 second")
  })

  it("says seconds from 1.5 up to 90", () => {
    expect(describeDuration(1.5)).toBe("about 2 seconds")
    expect(describeDuration(40.4)).toBe("about 40 seconds")
    expect(describeDuration(89.4)).toBe("about 89 seconds")
  })

  it("says minutes from 90 seconds up to 90 minutes", () => {
    expect(describeDuration(90)).toBe("about 2 minutes")
    expect(describeDuration(180)).toBe("about 3 minutes")
    expect(describeDuration(89 * 60)).toBe("about 89 minutes")
  })

  it("says hours from 90 minutes on", () => {
    expect(describeDuration(90 * 60)).toBe("about 2 hours")
    expect(describeDuration(2 * 3_600)).toBe("about 2 hours")
    expect(describeDuration(26.4 * 3_600)).toBe("about 26 hours")
  })
})
