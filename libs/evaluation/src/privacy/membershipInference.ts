import type { SynthTable } from "@synth/synth"
import { closestRecords } from "./closestRecords.ts"
import { distanceTables } from "./distanceTables.ts"
import { rocAuc } from "./rocAuc.ts"

export interface MembershipInference {
  /**
   * AUC of the attack at telling training rows (members) from holdout rows (non-members): 0.5 is a coin toss, 1 a
   * perfect attack; below 0.5 the holdout rows are the closer ones.
   */
  readonly auc: number
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

/** membershipInference from each training and each holdout row's distance to its closest synthetic row. */
export const membershipInferenceFromDistances = (members: Float64Array, nonMembers: Float64Array): MembershipInference => ({
  auc: rocAuc(members.map((distance) => -distance), nonMembers.map((distance) => -distance)),
  members: members.length,
  nonMembers: nonMembers.length
})
