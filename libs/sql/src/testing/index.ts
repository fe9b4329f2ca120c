export { layerEmbeddedTest } from "./layerEmbeddedTest.ts"
