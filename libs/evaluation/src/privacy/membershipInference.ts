import type { SynthTable } from "@synth/synth"
import { type AucInterval, aucInterval } from "./aucInterval.ts"
import { closestRecords } from "./closestRecords.ts"
import { distanceTables } from "./distanceTables.ts"
import { membershipInferenceMaxAuc, membershipInferenceMaxAucHigh } from "./membershipThresholds.ts"
import { rocAuc } from "./rocAuc.ts"

export { membershipInferenceMaxAuc, membershipInferenceMaxAucHigh } from "./membershipThresholds.ts"

export interface MembershipInference {
  /**
   * AUC of the attack at telling training rows (members) from holdout rows (non-members): 0.5 is a coin toss, 1 a
   * perfect attack; below 0.5 the holdout rows are the closer ones.
   */
  readonly auc: number
  /** DeLong's 95 % interval of the AUC; null with fewer than two rows on a side. */
  readonly interval: { readonly low: number; readonly high: number; readonly standardError: number; readonly method: "DeLong" } | null
  /** auc ≤ 0.6 and the interval's upper end ≤ 0.7; false without an interval. */
  readonly passed: boolean
  readonly members: number
  readonly nonMembers: number
}

/**
 * A distance-based membership-inference attack: an attacker who holds the synthetic table scores each candidate
 * record by −(its distance to the closest synthetic row) — the closer, the likelier it was trained on. Distances
 * are SDMetrics' DCR distance with the synthetic table's ranges (see closestRecords); the AUC is the Mann–Whitney
 * statistic with ties as ½.
 */
export const membershipInference = (training: SynthTable, holdout: SynthTable, synthetic: SynthTable): MembershipInference => {
  const distances = (table: SynthTable) => closestRecords(distanceTables(table, synthetic)).nearest
  return membershipInferenceFromDistances(distances(training), distances(holdout))
}

const judged = (auc: number, interval: AucInterval | null) =>
  interval !== null && auc <= membershipInferenceMaxAuc && interval.high <= membershipInferenceMaxAucHigh

/** membershipInference from each training and each holdout row's distance to its closest synthetic row. */
export const membershipInferenceFromDistances = (members: Float64Array, nonMembers: Float64Array): MembershipInference => {
  const memberScores = members.map((distance) => -distance), nonMemberScores = nonMembers.map((distance) => -distance)
  const auc = rocAuc(memberScores, nonMemberScores)
  const interval = aucInterval(memberScores, nonMemberScores)
  return {
    auc,
    interval: interval === null ? null : { low: interval.low, high: interval.high, standardError: interval.standardError, method: "DeLong" },
    passed: judged(auc, interval),
    members: members.length,
    nonMembers: nonMembers.length
  }
}
