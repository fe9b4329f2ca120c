import { describe, expect, it } from "vitest"
import { pulse, readableSize, summaryLine } from "./byteProgress.ts"

describe("summaryLine", () => {
  it("says what moved of how much, in how long and how fast", () => {
    expect(summaryLine({ done: "sent", bytes: 2_500_000, total: 2_500_000, seconds: 2 })).toBe("sent 2.5 MB of 2.5 MB in 2.00 s (1.3 MB/s)")
  })

  it("leaves the total out when the size was not announced", () => {
    expect(summaryLine({ done: "received", bytes: 640, total: undefined, seconds: 0.5 })).toBe("received 0.6 kB in 0.50 s (0.0 MB/s)")
  })

  it("gives no rate for a transfer that took no measurable time", () => {
    expect(summaryLine({ done: "received", bytes: 0, total: 0, seconds: 0 })).toBe("received 0.0 kB of 0.0 kB in 0.00 s")
  })
})

describe("readableSize", () => {
  it("shows kB below a megabyte and MB from one (powers of ten)", () => {
    expect(readableSize(999_949)).toBe("999.9 kB")
    expect(readableSize(1_000_000)).toBe("1.0 MB")
  })
})

describe("pulse", () => {
  it("sweeps a block across the bar and back, the bar's width fixed", () => {
    const frames = [0, 750, 1500, 2250, 3000].map(pulse)
    expect(frames.map((frame) => frame.length)).toEqual([40, 40, 40, 40, 40])
    expect(frames.map((frame) => frame.indexOf("="))).toEqual([0, 16, 32, 16, 0])
    expect(frames.every((frame) => (frame.match(/=/g) ?? []).length === 8)).toBe(true)
  })
})
