export { blobStoreContract } from "./contract.ts"
export { chunked, sampleBytes, sha256 } from "./fixtures.ts"
