import { type NameHint, nameHint, nameWords } from "../context/columnName.ts"
import { vocabularyProfile, type VocabularyProfile } from "../lexicon/valueVocabulary.ts"
import { readsAsUnixTimes, timeNameWords } from "../patterns/unixTime.ts"
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
  /** How the text values read word by word (names, places, things); undefined for columns that are not text. */
  readonly vocabulary: VocabularyProfile | undefined
  /**
   * What numbers the values are, when that rules out identifier types: `decimals` (measurements, or coordinates of a
   * pair), `unix_times` (9- to 16-digit integers that read as Unix times): such a column holds only the types its
   * name states (and geo_coordinates for decimals).
   */
  readonly numbers: "decimals" | "unix_times" | undefined
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

const decimal = /^[+-]?\d*\.\d+$/

const numbersOf = (column: ColumnSample, tested: ReadonlyArray<string>): ColumnEvidence["numbers"] => {
  if (tested.length === 0) return undefined
  if ((column.kind === "float" || column.kind === "string") && tested.filter((value) => decimal.test(value)).length >= tested.length / 2) {
    return "decimals"
  }
  if (column.kind !== "integer" && column.kind !== "string") return undefined
  const nameSaysTime = nameWords(column.name).some((word) => timeNameWords.has(word))
  return readsAsUnixTimes(tested, nameSaysTime) ? "unix_times" : undefined
}

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
  const numbers = numbersOf(column, tested)
  // Booleans cannot be personal data; decimals are measurements (or one half of a coordinate pair, found by the
  // neighbours), never an id, a phone or a code.
  const hint = nameHint(column.name)
  // Unix times get only the types their name states (scan/decide.ts): the other detectors need not run.
  const applicable = numbers === "unix_times" ? detectors.filter((detector) => hint?.types.includes(detector.type) === true) : detectors
  if (column.kind !== "boolean" && numbers !== "decimals") {
    for (const detector of applicable) {
      const share = shareOf(detector, tested)
      if (share === 0) continue
      const known = byType.get(detector.type)
      const better = known === undefined || share > known.share + 1e-9 ||
        (Math.abs(share - known.share) <= 1e-9 && strengthRank[detector.strength] > strengthRank[known.strength])
      if (better) byType.set(detector.type, { type: detector.type, share, strength: detector.strength, detector })
    }
  }
  const vocabulary = column.kind === "string" ? vocabularyProfile(tested) : undefined
  return { column, present, hint, vetoed: vetoed(column.name), byType, vocabulary, numbers }
}
