export {
  defaultQuasiIdentifierOptions,
  type QuasiIdentifierOptions,
  type QuasiIdentifierSet,
  quasiIdentifiers
} from "./quasiIdentifiers.ts"
export { columnStatistics, type ColumnStatistics, isIdentifier } from "./uniqueness.ts"
