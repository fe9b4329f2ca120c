import { describe, expect, it } from "vitest"
import { npiValid } from "./checksums.ts"
import { readsAsUnixTimes } from "./unixTime.ts"

const now = new Date(Date.UTC(2026, 10, 1))
const day = 86_400
const start = Date.UTC(2023, 0, 1) / 1000
const seconds = Array.from({ length: 200 }, (_, i) => start + ((i * 7919) % 365) * day + i)

describe("readsAsUnixTimes", () => {
  it("reads clustered 10-digit seconds, 13-digit milliseconds and 16-digit microseconds as times", () => {
    expect(readsAsUnixTimes(seconds.map(String), false, now)).toBe(true)
    expect(readsAsUnixTimes(seconds.map((s) => String(s * 1000 + 123)), false, now)).toBe(true)
    expect(readsAsUnixTimes(seconds.map((s) => String(s * 1_000_000)), false, now)).toBe(true)
    // 9-digit seconds: 1973 to 2001, the shape of a bare SSN.
    expect(readsAsUnixTimes(seconds.map((s) => String(s - 800_000_000)), false, now)).toBe(true)
  })

  it("does not read NPIs or other ids spread over decades as times, unless the name says time", () => {
    const npis: Array<string> = []
    for (let candidate = 1_000_000_003; npis.length < 200; candidate += 499_999) if (npiValid(String(candidate))) npis.push(String(candidate))
    expect(Number(npis.at(-1)) - Number(npis[0])).toBeGreaterThan(25 * 31_556_952)
    expect(readsAsUnixTimes(npis, false, now)).toBe(false)
    // A name that says time (`created_ts`) wins: the scan then gives the column only a type its name states.
    expect(readsAsUnixTimes(npis, true, now)).toBe(true)
  })

  it("rejects values out of range, too short or not integers", () => {
    expect(readsAsUnixTimes(seconds.map((s) => String(s + 40 * 31_556_952)), true, now)).toBe(false)
    expect(readsAsUnixTimes(["12345", "67890"], true, now)).toBe(false)
    expect(readsAsUnixTimes(seconds.map((s) => `${s}.5`), true, now)).toBe(false)
    expect(readsAsUnixTimes([], true, now)).toBe(false)
  })
})
