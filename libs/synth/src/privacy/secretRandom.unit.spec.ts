import { describe, expect, it } from "vitest"
import { secretRandom } from "./secretRandom.ts"

const draws = (random: ReturnType<typeof secretRandom>, count: number) => Array.from({ length: count }, () => random.uint32())

describe("the secret-keyed random source", () => {
  it("gives the same draws for the same secret and seed, and other draws for another secret or seed", () => {
    const first = draws(secretRandom("service secret", 42), 40_000)
    expect(draws(secretRandom("service secret", 42), 40_000)).toEqual(first)
    expect(draws(secretRandom("another secret", 42), 100)).not.toEqual(first.slice(0, 100))
    expect(draws(secretRandom("service secret", 43), 100)).not.toEqual(first.slice(0, 100))
    expect(first.every((word) => Number.isInteger(word) && word >= 0 && word < 2 ** 32)).toBe(true)
  })

  it("draws uniforms, integers and normals as makeRandom does from its words", () => {
    const random = secretRandom("s", 1)
    const count = 100_000
    let sum = 0
    let sumNormal = 0
    let sumSquares = 0
    const buckets = new Float64Array(10)
    for (let i = 0; i < count; i++) {
      const uniform = random.next()
      sum += uniform
      buckets[random.integer(10)]! += 1
      const normal = random.normal()
      sumNormal += normal
      sumSquares += normal * normal
    }
    expect(sum / count).toBeCloseTo(0.5, 2)
    expect(buckets.every((bucket) => Math.abs(bucket / count - 0.1) < 0.005)).toBe(true)
    expect(sumNormal / count).toBeCloseTo(0, 1)
    expect(sumSquares / count).toBeCloseTo(1, 1)
  })

  it("forks sub-streams that are reproducible and differ from the parent's draws", () => {
    const parent = secretRandom("s", 7)
    const child = parent.fork()
    const again = secretRandom("s", 7).fork()
    const childDraws = draws(child, 50)
    expect(draws(again, 50)).toEqual(childDraws)
    expect(draws(parent, 50)).not.toEqual(childDraws)
  })
})
