import type { CategoricalColumnProfile, StringLengths } from "../Profile.ts"
import type { CategoricalColumn } from "../ProfileInput.ts"
import type { ResolvedProfileOptions } from "../ProfileOptions.ts"
import { categoryCounts } from "./categoryCounts.ts"
import { topCategories } from "./topCategories.ts"

export interface CategoricalSummary {
  readonly profile: CategoricalColumnProfile
  readonly presentCount: number
  /** Share of non-missing values that read as numbers: between 0 and 1 exclusive the column mixes kinds. */
  readonly numericShare: number
}

const codePointLength = (text: string): number => {
  let length = 0
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    // A low surrogate continues the code point its high surrogate started.
    if (unit < 0xdc00 || unit > 0xdfff) length++
  }
  return length
}

const looksNumeric = (text: string): boolean => {
  const trimmed = text.trim()
  return trimmed !== "" && Number.isFinite(Number(trimmed))
}

const stringLengths = (counts: Float64Array, categories: ReadonlyArray<string>, present: number): StringLengths | null => {
  if (present === 0) return null
  let min = Infinity
  let max = -Infinity
  let total = 0
  for (let code = 0; code < counts.length; code++) {
    const count = counts[code]!
    if (count === 0) continue
    const length = codePointLength(categories[code]!)
    min = Math.min(min, length)
    max = Math.max(max, length)
    total += length * count
  }
  return { min, mean: total / present, max }
}

export const categoricalProfile = (column: CategoricalColumn, options: ResolvedProfileOptions): CategoricalSummary => {
  const { counts, presentCount, usedCount } = categoryCounts(column.codes, column.categories.length)
  const missingCount = column.codes.length - presentCount
  const top = topCategories(counts, column.categories, options.topK)
  let numericCount = 0
  if (column.type === "string") {
    for (let code = 0; code < counts.length; code++) {
      if (counts[code]! > 0 && looksNumeric(column.categories[code]!)) numericCount += counts[code]!
    }
  }
  const profile: CategoricalColumnProfile = {
    name: column.name,
    type: column.type,
    nullable: missingCount > 0,
    missing_count: missingCount,
    unique_count: usedCount,
    likely_identifier: column.type === "string" && presentCount >= 2 && usedCount / presentCount >= 0.95,
    most_frequent: top.map((code) => column.categories[code]!),
    frequencies: top.map((code) => counts[code]!),
    ...(column.type === "string" ? { lengths: stringLengths(counts, column.categories, presentCount) } : {})
  }
  return { profile, presentCount, numericShare: presentCount === 0 ? 0 : numericCount / presentCount }
}
