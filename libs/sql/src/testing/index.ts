export { layerEmbeddedTest } from "./layerEmbeddedTest.ts"
export { freshPostgresDatabase, layerPostgresTest } from "./layerPostgresTest.ts"
export { type MakeDatabase, readModelContract } from "./readModelContract.ts"
