// The labelled corpus (generated with @faker-js/faker): for the training script, benchmarks and
// tests, never for the service.
export * from "../corpus/index.ts"
export * from "../index.ts"
