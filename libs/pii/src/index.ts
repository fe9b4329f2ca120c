export { type PiiTypeInfo, piiCatalog, type Sensitivity } from "./catalog.ts"
export { hasVetoWord, nameHint, type NameHint, nameWords } from "./context/index.ts"
export { maskValue } from "./masking/index.ts"
export * from "./patterns/index.ts"
export * from "./scan/index.ts"
export * from "./statistical/index.ts"
export * from "./types.ts"
export {
  type ClassifierArtifact,
  classifyColumns,
  classifyWith,
  columnFeatures,
  columnShapeSummary,
  localClassifier,
  valueShape
} from "./ai/index.ts"
export {
  abaRoutingNumber,
  bitcoinAddress,
  brazilianCpf,
  canadianSin,
  type Draw,
  icd10Code,
  nhsNumber,
  nino,
  npiNumber,
  phoneNumber,
  spanishDni,
  ssn
} from "./corpus/validValues.ts"
