export {
  DEFAULT_ORDERS,
  type EpsilonTarget,
  MAX_NOISE_MULTIPLIER,
  type Mechanism,
  noiseMultiplierFor,
  noiseMultiplierForYielding,
  privacySpent,
  type PrivacySpent,
  privacySpentYielding
} from "./rdpAccountant.ts"
export {
  assessDpConfiguration,
  defaultDelta,
  type DpAssessment,
  type DpConfiguration,
  MAX_NOISE_PER_ROW,
  NOISY_NOISE_PER_ROW,
  type PrivacyLevel,
  utilityBands
} from "./dpPlan.ts"
