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
  type DpAssessment,
  type DpConfiguration,
  dpTrainingPlan,
  type DpTrainingPlan,
  MAX_NOISE_PER_ROW,
  NOISY_NOISE_PER_ROW,
  type PrivacyLevel,
  sampleRateOf,
  stepsOf,
  type TrainingInput,
  trainingSpent,
  utilityBands
} from "./dpPlan.ts"
export {
  allocateDelta,
  allocatePreprocessing,
  type BudgetSplit,
  budgetSplit,
  type ColumnAllocation,
  type ColumnKind,
  defaultDelta,
  type DeltaSplit,
  deltaSplit,
  type PreprocessingAllocation,
  PREPROCESSING_DELTA_SHARE,
  PREPROCESSING_SHARE,
  ROW_COUNT_SHARE
} from "./budgetSplit.ts"
export {
  CategoriesRelease,
  CountRelease,
  HistogramRelease,
  type PrivacyLedger,
  privacyLedger,
  QuantileRelease,
  Release
} from "./ledger.ts"
export { secretRandom } from "./secretRandom.ts"
