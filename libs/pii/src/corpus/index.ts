export { columnGenerators } from "./columnGenerators.ts"
export { type CorpusOptions, generateCorpus, type LabelledTable } from "./generateCorpus.ts"
export { type CorpusScore, scoreCorpus, type TypeScore } from "./evaluate.ts"
