export { blobStoreContract } from "./contract.ts"
export { chunked, readAll, sampleBytes, sha256 } from "./fixtures.ts"
