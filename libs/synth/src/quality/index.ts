export { pearson } from "./correlationSimilarity.ts"
export {
  type ColumnPairDetail,
  type ColumnShapeDetail,
  type QualityOptions,
  type QualityReport,
  qualityReport
} from "./qualityReport.ts"
export { sharedLabelIds } from "./columnViews.ts"
