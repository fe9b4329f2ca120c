import { type NameHint, nameHint } from "../context/columnName.ts"
import type { ColumnSample, PatternDetector, PiiType } from "../types.ts"

/** Values tested per column at most: a match share within ±5 % (95 %) whatever the sample size, and a bounded cost. */
const maxTestedValues = 400
/** After this many values a detector matching under a fifth of them is given up (saves the costly validations). */
const earlyExitAfter = 60

export interface TypeEvidence {
  readonly type: PiiType
  /** Best share among the type's detectors, and that detector's strength. */
  readonly share: number
  readonly strength: PatternDetector["strength"]
  readonly detector: PatternDetector
}

export interface ColumnEvidence {
  readonly column: ColumnSample
  /** Present values (trimmed, non-empty) of the sample. */
  readonly present: ReadonlyArray<string>
  readonly hint: NameHint | undefined
  /** The column's name carries a veto word (`order_number`, `ip_count`, `version`): formats alone prove nothing. */
  readonly vetoed: boolean
  readonly byType: ReadonlyMap<PiiType, TypeEvidence>
}

const evenlySpaced = <A>(values: ReadonlyArray<A>, limit: number): ReadonlyArray<A> =>
  values.length <= limit ? values : Array.from({ length: limit }, (_, index) => values[Math.floor((index * values.length) / limit)]!)

const shareOf = (detector: PatternDetector, values: ReadonlyArray<string>) => {
  let matched = 0
  for (let index = 0; index < values.length; index++) {
    if (detector.matches(values[index]!)) matched++
    if (index + 1 === earlyExitAfter && matched < earlyExitAfter / 5) return matched / (index + 1)
  }
  return values.length === 0 ? 0 : matched / values.length
}

const strengthRank = { checksum: 3, strict_format: 2, loose_format: 1 } as const

/** Everything the scan decides a column by: its name, and how many of its values each detector validates. */
export const columnEvidence = (
  column: ColumnSample,
  detectors: ReadonlyArray<PatternDetector>,
  vetoed: (name: string) => boolean
): ColumnEvidence => {
  const present = column.values.flatMap((value) => {
    const trimmed = value?.trim() ?? ""
    return trimmed === "" ? [] : [trimmed]
  })
  const tested = evenlySpaced(present, maxTestedValues)
  const byType = new Map<PiiType, TypeEvidence>()
  // Booleans cannot be personal data; a float column is tested only as a whole number or coordinate.
  if (column.kind !== "boolean") {
    for (const detector of detectors) {
      const share = shareOf(detector, tested)
      if (share === 0) continue
      const known = byType.get(detector.type)
      const better = known === undefined || share > known.share + 1e-9 ||
        (Math.abs(share - known.share) <= 1e-9 && strengthRank[detector.strength] > strengthRank[known.strength])
      if (better) byType.set(detector.type, { type: detector.type, share, strength: detector.strength, detector })
    }
  }
  return { column, present, hint: nameHint(column.name), vetoed: vetoed(column.name), byType }
}
