export { makeRandom, type Random } from "./random.ts"
export type { CategoricalColumn, ColumnType, ContinuousColumn, SynthColumn, SynthTable } from "./table.ts"
export * from "./copula/index.ts"
export * from "./quality/index.ts"
