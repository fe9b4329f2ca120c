import { describe, expect, it } from "vitest"
import { expectClose, readFixture } from "../testing/fixtures.ts"
import { chiSquareSurvival } from "./chiSquare.ts"
import { kolmogorovSurvival } from "./kolmogorov.ts"
import { smirnovSurvival } from "./smirnov.ts"

interface Distributions {
  readonly kstwo: ReadonlyArray<{ n: number; x: number; sf: number }>
  readonly smirnov: ReadonlyArray<{ n: number; x: number; sf: number }>
  readonly chi2: ReadonlyArray<{ df: number; x: number; sf: number }>
}
const reference = readFixture<Distributions>("distributions.json")

/** Absolute 1e-9, and 1e-6 relative where the probability is tiny (subnormal doubles hold too few digits for that). */
const expectProbability = (actual: number, expected: number) => {
  expectClose(actual, expected, 1e-9)
  if (expected > 1e-300 && expected < 1e-3) expect(Math.abs(actual - expected) / expected).toBeLessThan(1e-6)
}

describe("special functions against scipy (reference/evaluation_reference.py)", () => {
  it(`kstwo.sf on ${reference.kstwo.length} points across every branch of scipy's Kolmogorov distribution`, () => {
    for (const { n, x, sf } of reference.kstwo) expectProbability(kolmogorovSurvival(n, x), sf)
  })

  it(`smirnov on ${reference.smirnov.length} points`, () => {
    for (const { n, x, sf } of reference.smirnov) expectProbability(smirnovSurvival(n, x), sf)
  })

  it(`chi2.sf on ${reference.chi2.length} points`, () => {
    for (const { df, x, sf } of reference.chi2) expectProbability(chiSquareSurvival(x, df), sf)
  })
})
