import { distinctSorted, presentSorted } from "../numeric/presentSorted.ts"
import type { TemporalColumnProfile } from "../Profile.ts"
import type { TemporalColumn } from "../ProfileInput.ts"

const millisecondsPerDay = 86_400_000

export interface TemporalSummary {
  readonly profile: TemporalColumnProfile
  readonly presentCount: number
}

const isoString = (type: TemporalColumn["type"], epochMilliseconds: number): string => {
  const iso = new Date(epochMilliseconds).toISOString()
  return type === "date" ? iso.slice(0, 10) : iso
}

export const temporalProfile = (column: TemporalColumn): TemporalSummary => {
  const sorted = presentSorted(column.values)
  const presentCount = sorted.length
  const missingCount = column.values.length - presentCount
  const min = sorted[0]
  const max = sorted[presentCount - 1]
  const profile: TemporalColumnProfile = {
    name: column.name,
    type: column.type,
    nullable: missingCount > 0,
    missing_count: missingCount,
    unique_count: distinctSorted(sorted),
    likely_identifier: false,
    min: min === undefined ? null : isoString(column.type, min),
    max: max === undefined ? null : isoString(column.type, max),
    range_days: min === undefined || max === undefined ? null : (max - min) / millisecondsPerDay
  }
  return { profile, presentCount }
}
