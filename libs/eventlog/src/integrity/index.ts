export { canonicalJson } from "./canonicalJson.ts"
export { type ChainHead, producerOf, sealEnvelope, sealHash } from "./seal.ts"
export {
  type ChainReport,
  makeChainVerifier,
  type Problem,
  type ProblemKind,
  type RawRecord,
  verifyChains,
  type VerifyReport
} from "./verifyChains.ts"
