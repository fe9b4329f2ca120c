import { describe, expect, it } from "@effect/vitest"
import { formatElapsed, lastLosses, progressLine, type ProgressSnapshot } from "./progressLine.ts"

const running = (fields: Partial<ProgressSnapshot>): ProgressSnapshot => ({
  status: "running",
  phase: "fitting",
  progress: 0,
  loss_history: [],
  ...fields
})

describe("progressLine", () => {
  it("shows the stage, the percent and the time followed", () => {
    expect(progressLine(running({ phase: "queued" }), 0)).toBe("queued | 0% | 0:00 elapsed")
    expect(progressLine(running({ phase: "sampling", progress: 87 }), 7_400)).toBe("sampling | 87% | 0:07 elapsed")
  })

  it("adds the last epoch's losses once there are some", () => {
    const snapshot = running({
      progress: 42,
      loss_history: [
        { epoch: 1, losses: { generator: 1.5, discriminator: -0.5 } },
        { epoch: 2, losses: { generator: 0.812345, discriminator: -0.05 } }
      ]
    })
    expect(progressLine(snapshot, 65_000)).toBe("fitting | 42% | epoch 2: generator 0.8123, discriminator -0.05 | 1:05 elapsed")
  })

  it("names the status once the job is over", () => {
    expect(progressLine({ status: "completed", phase: null, progress: 100, loss_history: [] }, 3_000)).toBe(
      "completed | 100% | 0:03 elapsed"
    )
  })
})

describe("lastLosses", () => {
  it("is undefined before the first epoch, and keeps four significant digits without exponents", () => {
    expect(lastLosses([])).toBeUndefined()
    expect(lastLosses([{ epoch: 300, losses: { loss: 123456.7 } }])).toBe("epoch 300: loss 123500")
    expect(lastLosses([{ epoch: 3, losses: { loss: 0 } }])).toBe("epoch 3: loss 0")
    expect(lastLosses([{ epoch: 4, losses: {} }])).toBe("epoch 4")
  })
})

describe("formatElapsed", () => {
  it("writes minutes and seconds, and hours from an hour on", () => {
    expect(formatElapsed(999)).toBe("0:00")
    expect(formatElapsed(59_999)).toBe("0:59")
    expect(formatElapsed(600_000)).toBe("10:00")
    expect(formatElapsed(3_723_000)).toBe("1:02:03")
    expect(formatElapsed(-5)).toBe("0:00")
  })
})
