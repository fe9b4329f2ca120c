import { layerEmbedded } from "./embedded.ts"
import { eventLogContract } from "./testing/contract.ts"

// In-memory PGlite: the same engine and SQL as on disk, without the directory; durability has its own test.
eventLogContract("embedded (PGlite)", () => layerEmbedded())
