export { eventLogContract } from "./contract.ts"
export { payloadN, readAll, testEnvelope, uniqueTopic } from "./fixtures.ts"
