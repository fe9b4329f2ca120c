import { describe, expect, it } from "@effect/vitest"
import { jsonNestsDeeperThan } from "./jsonDepth.ts"

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`

describe("jsonNestsDeeperThan", () => {
  it("counts objects and arrays, at the limit and one past it", () => {
    expect(jsonNestsDeeperThan(nested(64), 64)).toBe(false)
    expect(jsonNestsDeeperThan(nested(65), 64)).toBe(true)
    expect(jsonNestsDeeperThan(`{"a":{"b":[{"c":1}]}}`, 4)).toBe(false)
    expect(jsonNestsDeeperThan(`{"a":{"b":[{"c":1}]}}`, 3)).toBe(true)
    expect(jsonNestsDeeperThan(`{"email":${nested(20_000)}}`, 64)).toBe(true)
  })

  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(jsonNestsDeeperThan(`{"a":"${"[".repeat(100)}"}`, 2)).toBe(false)
    expect(jsonNestsDeeperThan(`{"a":"\\"${"{".repeat(100)}\\\\"}`, 2)).toBe(false)
    expect(jsonNestsDeeperThan(`["\\\\", ${nested(3)}]`, 3)).toBe(true)
  })

  it("depth falls back as brackets close: siblings do not add up", () => {
    expect(jsonNestsDeeperThan(Array.from({ length: 1000 }, () => nested(10)).join(","), 10)).toBe(false)
  })
})
