export { hasVetoWord, nameHint, type NameHint, nameWords } from "./columnName.ts"
export { coordinatePairs, neighbourSupport } from "./neighbours.ts"
