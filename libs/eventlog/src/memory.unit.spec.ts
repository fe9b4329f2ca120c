import { eventLogContract } from "./testing/contract.ts"
import { layerMemory } from "./memory.ts"

eventLogContract("memory", () => layerMemory())

// Three partitions, like the Kafka topics, so the suite itself is checked not to assume a single partition.
eventLogContract("memory, 3 partitions", () => layerMemory({ partitions: 3 }))
