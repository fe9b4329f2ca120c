export { eventLogContract } from "./contract.ts"
export { payloadN, readAll, testEnvelope, uniqueTopic } from "./fixtures.ts"
export {
  kafkaTestSettings,
  layerKafkaForTests,
  produceForeignRecord,
  testKafkaBrokers,
  uniqueKafkaPrefix
} from "../kafka/testing.ts"
