export { makeRandom, type Random } from "./random.ts"
export type { CategoricalColumn, ColumnType, ContinuousColumn, SynthColumn, SynthTable } from "./table.ts"
