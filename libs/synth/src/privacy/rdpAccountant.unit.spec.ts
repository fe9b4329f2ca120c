import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { DEFAULT_ORDERS, noiseMultiplierFor, privacySpent } from "./rdpAccountant.ts"

interface Spent {
  readonly noise_multiplier: number
  readonly sample_rate: number
  readonly steps: number
  readonly delta: number
  readonly epsilon: number
  readonly order: number
}
interface Searched {
  readonly target_epsilon: number
  readonly delta: number
  readonly sample_rate: number
  readonly steps: number
  readonly noise_multiplier: number
  readonly epsilon: number
}

// Opacus 1.5.4's RDP accountant and get_noise_multiplier (reference/rdp_reference.py).
const fixtures = JSON.parse(readFileSync(new URL("../../reference/fixtures/rdp.json", import.meta.url), "utf8")) as {
  readonly spent: ReadonlyArray<Spent>
  readonly searched: ReadonlyArray<Searched>
}

const relative = (actual: number, expected: number) => Math.abs(actual - expected) / Math.abs(expected)

describe("privacySpent", () => {
  it("uses Opacus's orders", () => {
    expect(DEFAULT_ORDERS.length).toBe(151)
    expect([DEFAULT_ORDERS[0], DEFAULT_ORDERS[98], DEFAULT_ORDERS[99], DEFAULT_ORDERS[150]]).toEqual([1.1, 10.9, 12, 63])
  })

  it(`gives Opacus's ε and best order on ${fixtures.spent.length} configurations, to 1e-9 relative`, () => {
    let worst = 0
    for (const reference of fixtures.spent) {
      const spent = privacySpent(
        { noiseMultiplier: reference.noise_multiplier, sampleRate: reference.sample_rate, steps: reference.steps },
        reference.delta
      )
      worst = Math.max(worst, relative(spent.epsilon, reference.epsilon))
      expect(spent.order, JSON.stringify(reference)).toBe(reference.order)
    }
    expect(worst).toBeLessThan(1e-9)
  })

  it("spends more with more steps, less with more noise", () => {
    const spent = (noiseMultiplier: number, steps: number) => privacySpent({ noiseMultiplier, sampleRate: 0.01, steps }, 1e-5).epsilon
    expect(spent(1, 2000)).toBeGreaterThan(spent(1, 1000))
    expect(spent(2, 1000)).toBeLessThan(spent(1, 1000))
  })
})

describe("noiseMultiplierFor", () => {
  it("finds the noise multiplier Opacus's search finds, spending at most the target", () => {
    for (const reference of fixtures.searched) {
      const found = noiseMultiplierFor({ epsilon: reference.target_epsilon, delta: reference.delta, sampleRate: reference.sample_rate, steps: reference.steps })
      expect(found, JSON.stringify(reference)).not.toBeNull()
      expect(relative(found!, reference.noise_multiplier)).toBeLessThan(1e-9)
      const spent = privacySpent({ noiseMultiplier: found!, sampleRate: reference.sample_rate, steps: reference.steps }, reference.delta)
      expect(spent.epsilon).toBeLessThanOrEqual(reference.target_epsilon)
      expect(spent.epsilon).toBeGreaterThan(reference.target_epsilon - 0.01)
    }
  })

  it("answers null when no noise is enough (a full-batch budget far too small)", () => {
    expect(noiseMultiplierFor({ epsilon: 1e-9, delta: 1e-5, sampleRate: 1, steps: 1e9 })).toBeNull()
  })
})
