export * from "./BlobKey.ts"
export * from "./BlobStore.ts"
export * from "./localDirectory.ts"
export * from "./memory.ts"
