// The labelled corpus (needs @faker-js/faker, a development dependency): for the training script, benchmarks and
// tests, never for the service.
export * from "../corpus/index.ts"
export * from "../index.ts"
