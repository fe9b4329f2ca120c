import { describe, expect, it } from "vitest"
import { makeRandom } from "./random.ts"

describe("makeRandom", () => {
  it("repeats its sequence for a seed and differs between seeds", () => {
    const draw = (seed: number) => {
      const random = makeRandom(seed)
      return Array.from({ length: 5 }, () => random.next())
    }
    expect(draw(7)).toEqual(draw(7))
    expect(draw(7)).not.toEqual(draw(8))
  })

  it("draws uniforms in [0, 1) and standard normals with the right moments", () => {
    const random = makeRandom(42)
    let sum = 0, squares = 0, low = 1, high = 0
    const n = 200_000
    for (let i = 0; i < n; i++) {
      const u = random.next()
      low = Math.min(low, u)
      high = Math.max(high, u)
      const z = random.normal()
      sum += z
      squares += z * z
    }
    expect(low).toBeGreaterThanOrEqual(0)
    expect(high).toBeLessThan(1)
    expect(Math.abs(sum / n)).toBeLessThan(0.01)
    expect(Math.abs(squares / n - 1)).toBeLessThan(0.01)
  })

  it("forks independent generators deterministically", () => {
    const a = makeRandom(1).fork()
    const b = makeRandom(1).fork()
    expect(a.next()).toBe(b.next())
    const counts = new Array<number>(4).fill(0)
    const random = makeRandom(3)
    for (let i = 0; i < 40_000; i++) counts[random.integer(4)]!++
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(400)
  })
})
