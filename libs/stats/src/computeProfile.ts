import { categoricalProfile } from "./categorical/categoricalProfile.ts"
import type { ColumnMoments } from "./numeric/centredColumn.ts"
import { centredColumn } from "./numeric/centredColumn.ts"
import { numericProfile } from "./numeric/numericProfile.ts"
import type { CentredNumeric } from "./pairs/pairwise.ts"
import { associations, correlations } from "./pairs/pairwise.ts"
import type { Profile } from "./Profile.ts"
import type { ProfileColumn, ProfileInput } from "./ProfileInput.ts"
import { isCategoricalColumn, isNumericColumn } from "./ProfileInput.ts"
import type { ProfileOptions, ResolvedProfileOptions } from "./ProfileOptions.ts"
import { resolveOptions } from "./ProfileOptions.ts"
import type { ColumnEvidence } from "./quality/ColumnEvidence.ts"
import { dataQuality } from "./quality/scoreDataQuality.ts"
import { duplicateRowCount } from "./rows/duplicateRows.ts"
import { temporalProfile } from "./temporal/temporalProfile.ts"

const columnLength = (column: ProfileColumn) => (isCategoricalColumn(column) ? column.codes.length : column.values.length)

const columnEvidence = (
  column: ProfileColumn,
  moments: ReadonlyMap<ProfileColumn, ColumnMoments>,
  options: ResolvedProfileOptions
): ColumnEvidence => {
  if (isNumericColumn(column)) {
    const { profile, presentCount, farOutCount } = numericProfile(column, moments.get(column)!, options)
    return { profile, presentCount, farOutCount, numericShare: 0 }
  }
  if (isCategoricalColumn(column)) {
    const { profile, presentCount, numericShare } = categoricalProfile(column, options)
    return { profile, presentCount, farOutCount: 0, numericShare }
  }
  const { profile, presentCount } = temporalProfile(column)
  return { profile, presentCount, farOutCount: 0, numericShare: 0 }
}

/**
 * Correlations, associations and the numeric columns' moments, all from one CentredColumn per numeric column. The
 * columns' deviations, which the pairs share, go out of scope on return: the sorts of the column summaries that
 * follow need their memory.
 */
const pairsAndMoments = (input: ProfileInput, options: ResolvedProfileOptions) => {
  const numeric: Array<CentredNumeric> = input.columns
    .filter(isNumericColumn)
    .map((column) => ({ column, centred: centredColumn(column.values) }))
  return {
    correlations: correlations(input, numeric),
    associations: associations(input, numeric, options.maxAssociationCategories),
    moments: new Map<ProfileColumn, ColumnMoments>(
      numeric.map(({ column, centred }) => [column, { presentCount: centred.presentCount, moments: centred.moments }])
    )
  }
}

/**
 * The statistics of a table. Synchronous and CPU-bound (about 0.7 s per million rows of twenty columns): a
 * service runs it off its request fibre. Every column must hold `rowCount` entries; anything else is a caller bug
 * and throws a RangeError.
 */
export const profile = (input: ProfileInput, options?: ProfileOptions): Profile => {
  for (const column of input.columns) {
    if (columnLength(column) !== input.rowCount) {
      throw new RangeError(`column ${column.name} holds ${columnLength(column)} values, not rowCount ${input.rowCount}`)
    }
  }
  const resolved = resolveOptions(options)
  const { correlations, associations, moments } = pairsAndMoments(input, resolved)
  const evidence = input.columns.map((column) => columnEvidence(column, moments, resolved))
  // A column whose values are all distinct (at most one of them missing) already tells every row apart, so no row
  // can repeat another: measurements and ids usually are. The hash pass it saves cost ~90 ms on the 1M × 20 table.
  const someColumnDistinct = evidence.some(({ profile }) =>
    profile.missing_count <= 1 && profile.unique_count + profile.missing_count === input.rowCount)
  const duplicates = someColumnDistinct ? 0 : duplicateRowCount(input)
  const quality = dataQuality(evidence, input.rowCount, duplicates, resolved)
  return {
    row_count: input.rowCount,
    column_count: input.columns.length,
    columns: evidence.map((column) => column.profile),
    correlations,
    associations,
    duplicate_row_count: duplicates,
    data_quality_score: quality.score,
    data_quality: quality
  }
}
