export { DEFAULT_ORDERS, MAX_NOISE_MULTIPLIER, type Mechanism, noiseMultiplierFor, privacySpent, type PrivacySpent } from "./rdpAccountant.ts"
