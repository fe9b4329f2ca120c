export interface ProfileOptions {
  /** How many categories most_frequent lists (default 10). */
  readonly topK?: number
  /** Upper bound on histogram bins (default 50). */
  readonly maxHistogramBins?: number
  /** How many row indices an outlier summary samples (default 5). */
  readonly outlierSampleSize?: number
  /**
   * Association measures skip a categorical column with more categories in use than this (default 1000): its
   * contingency tables grow with the product of the category counts and say little at that cardinality.
   */
  readonly maxAssociationCategories?: number
  /**
   * Ingest evidence per column name: the fraction (0..1) of non-missing values that parsed as the column's type
   * without being standardised. Feeds the consistency component of data quality; columns left out count as 1
   * unless their own values look mixed.
   */
  readonly consistency?: Readonly<Record<string, number>>
}

export interface ResolvedProfileOptions {
  readonly topK: number
  readonly maxHistogramBins: number
  readonly outlierSampleSize: number
  readonly maxAssociationCategories: number
  readonly consistency: Readonly<Record<string, number>>
}

export const resolveOptions = (options: ProfileOptions = {}): ResolvedProfileOptions => ({
  topK: options.topK ?? 10,
  maxHistogramBins: options.maxHistogramBins ?? 50,
  outlierSampleSize: options.outlierSampleSize ?? 5,
  maxAssociationCategories: options.maxAssociationCategories ?? 1000,
  consistency: options.consistency ?? {}
})
