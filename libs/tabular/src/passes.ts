/**
 * The two passes of `ingestTable` one by one, for benchmarks and profiles (test/bench/ingest.bench.ts) that time
 * them separately; services use `ingestTable`.
 */
export { inferTable } from "./infer/inferTable.ts"
export { encodeTable } from "./normalise/encodeTable.ts"
export { openRecords } from "./records/openRecords.ts"
