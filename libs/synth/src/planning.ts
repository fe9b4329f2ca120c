// What the gateway plans a generator with (limits, durations, rules, the privacy plan), without the models: it
// loads at start, and the models load in the job threads that train and sample.
export { describeDuration, estimateSeconds, type WidthColumn } from "./models/speedModel.ts"
export { trainableGenerators } from "./models/trainable.ts"
export { assessDpConfiguration } from "./privacy/dpPlan.ts"
export { type DatasetFacts, factsOfColumnTypes, factsOfProfile } from "./constraints/datasetFacts.ts"
export { validateRules } from "./constraints/validateRules.ts"
