export { TransformerArtifact, TransformerArtifactError } from "./artifact.ts"
export type { CategoricalSpec } from "./categoricalColumn.ts"
export type { ContinuousSpec } from "./continuousColumn.ts"
export {
  type ColumnSpec,
  DEFAULT_MAX_CATEGORIES,
  DEFAULT_MAX_FIT_VALUES,
  fitTableTransformer,
  type Span,
  type TableDecoder,
  type TableTransformer,
  tableTransformerFromJSON,
  type TableTransformerOptions,
  tableTransformerOf
} from "./tableTransformer.ts"
