import { layerMemory } from "./memory.ts"
import { blobStoreContract } from "./testing/contract.ts"

blobStoreContract("memory", () => layerMemory)
