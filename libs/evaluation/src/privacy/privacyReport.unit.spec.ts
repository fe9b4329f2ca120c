import { describe, expect, it } from "vitest"
import { loadTable } from "../statistical/testing/fixtures.ts"
import { closestRecordDistances } from "./closestRecords.ts"
import { dcrOverfittingProtection } from "./dcrOverfittingProtection.ts"
import { membershipInference } from "./membershipInference.ts"
import { nearestNeighbourRatio } from "./nearestNeighbourRatio.ts"
import { newRowSynthesis } from "./newRowSynthesis.ts"
import { median } from "./median.ts"
import { attackProtection, privacyReport } from "./privacyReport.ts"

const load = async () => ({
  training: await loadTable("privacy_training.csv"),
  holdout: await loadTable("privacy_holdout.csv"),
  synthetic: await loadTable("privacy_synthetic.csv")
})

describe("privacyReport", () => {
  it("combines the metrics as each computes them on its own, reproducibly for a seed", async () => {
    const { training, holdout, synthetic } = await load()
    const report = privacyReport(training, synthetic, holdout, { seed: 5 })
    expect(privacyReport(training, synthetic, holdout, { seed: 5 })).toEqual(report)
    expect(report.rows).toEqual({ training: 400, synthetic: 300, holdout: 200 })
    expect(report.dcrOverfittingProtection).toEqual(dcrOverfittingProtection(training, synthetic, holdout))
    expect(report.newRowSynthesis).toEqual(newRowSynthesis(training, synthetic))
    // 20 exact copies against no held-out row equal to a training row: more than chance.
    expect(report.exactCopies).toEqual({ share: 20 / 300, rows: 20, holdoutShare: 0, passed: false })
    const ratio = nearestNeighbourRatio(training, synthetic)
    expect(report.nearestNeighbourRatio).toEqual({ median: ratio.median, mean: ratio.mean, shareBelowHalf: ratio.shareBelowHalf })
    expect(report.membershipInference).toEqual(membershipInference(training, holdout, synthetic))
    expect(report.dcrBaselineProtection.medianDcrSynthetic).toBe(median(closestRecordDistances(synthetic, training).nearest))
    const protections = [report.dcrBaselineProtection.score!, report.dcrOverfittingProtection!.score, report.newRowSynthesis.score, attackProtection(report.membershipInference!.auc)]
    expect(report.score).toBeCloseTo(protections.reduce((sum, value) => sum + value, 0) / 4, 15)
    expect(report.level).toBe(report.score! >= 0.9 ? "Excellent" : report.score! >= 0.7 ? "Good" : report.score! >= 0.5 ? "Fair" : "Poor")
  })

  it("draws another random baseline for another seed, and leaves the holdout metrics out without a holdout", async () => {
    const { training, synthetic } = await load()
    const first = privacyReport(training, synthetic, null, { seed: 1 })
    const second = privacyReport(training, synthetic, null, { seed: 2 })
    expect(first.dcrBaselineProtection.medianDcrRandom).not.toBe(second.dcrBaselineProtection.medianDcrRandom)
    expect(first.dcrBaselineProtection.medianDcrSynthetic).toBe(second.dcrBaselineProtection.medianDcrSynthetic)
    expect(first.dcrOverfittingProtection).toBeNull()
    expect(first.membershipInference).toBeNull()
    expect(first.rows.holdout).toBeNull()
  })

  it("cannot call the output safe without column roles: the disclosure checks did not run", async () => {
    const { training, holdout, synthetic } = await load()
    const report = privacyReport(training, synthetic, holdout, { seed: 5 })
    expect(report.disclosure).toBeNull()
    expect(report.attributeInference).toBeNull()
    expect(report.verdict.notRun).toEqual(["identifier_disclosure", "quasi_identifier_disclosure", "attribute_inference"])
    expect(report.verdict.safeToShare).toBe(false)
  })

  it("samples each table down to maxRows", async () => {
    const { training, holdout, synthetic } = await load()
    const report = privacyReport(training, synthetic, holdout, { seed: 1, maxRows: 150 })
    expect(report.rows).toEqual({ training: 150, synthetic: 150, holdout: 150 })
    expect(report.membershipInference).toMatchObject({ members: 150, nonMembers: 150 })
  })

  it("turns the attack's AUC into a protection score: 1 up to chance, 0 for a perfect attack", () => {
    expect([0.3, 0.5, 0.75, 1].map(attackProtection)).toEqual([1, 1, 0.5, 0])
  })
})
