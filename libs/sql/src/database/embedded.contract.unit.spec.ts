import { layerEmbeddedTest } from "../testing/layerEmbeddedTest.ts"
import { readModelContract } from "../testing/readModelContract.ts"

// Beside embedded.unit.spec.ts rather than in it, so the two run in parallel.
readModelContract("embedded (PGlite)", () => layerEmbeddedTest)
