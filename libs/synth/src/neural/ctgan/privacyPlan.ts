/**
 * DP-CTGAN's privacy plan for DP-SGD, before any training: the DP configuration check's plan (privacy/dpPlan.ts:
 * the target's split, δ, sampling rate, steps and searched noise multiplier) for the row count the preprocessing
 * released, so the check, given that count, answers exactly what training does; then how many of the planned steps
 * fit within the training's share (all of them with the searched σ; fewer when a σ is imposed), found by bisection on
 * the accountant (ε grows with the steps).
 */
import { Effect } from "effect"
import { type BudgetSplit, type DeltaSplit, dpTrainingPlan, privacySpent } from "../../privacy/index.ts"
import { CtganOptionsError, DEFAULT_MAX_GRAD_NORM, type DpOptions, InvalidEpsilon, PrivacyBudgetExceeded } from "./options.ts"

export interface PrivacyPlan {
  readonly targetEpsilon: number
  /** The target's split: the preprocessing's share and the most DP-SGD may spend. */
  readonly budget: BudgetSplit
  /** δ for the released row count: the total, the preprocessing's share and DP-SGD's. */
  readonly delta: DeltaSplit
  /** q: each row's chance of being in a batch (batch_size / rows), as the accountant assumes: Poisson sampling. */
  readonly sampleRate: number
  readonly noiseMultiplier: number
  readonly maxGradNorm: number
  /** ⌊epochs / q⌋, as Opacus counts the steps of `epochs` passes. */
  readonly plannedSteps: number
  /** The most steps whose ε stays within the training's share (≤ plannedSteps). */
  readonly allowedSteps: number
}

/** What DP-SGD spends over its first `steps` steps. */
export const epsilonAfter = (plan: Pick<PrivacyPlan, "delta" | "noiseMultiplier" | "sampleRate">, steps: number): number =>
  steps === 0 ? 0 : privacySpent({ noiseMultiplier: plan.noiseMultiplier, sampleRate: plan.sampleRate, steps }, plan.delta.training).epsilon

interface PlanInput {
  /** The row count the preprocessing released (never the exact one). */
  readonly rows: number
  readonly epochs: number
  readonly batchSize: number
}

/** The spec's two DP refusals and the options' own checks, before anything reads the data. */
export const checkDpOptions = (dp: DpOptions): void => {
  if (!(Number.isFinite(dp.targetEpsilon) && dp.targetEpsilon > 0)) {
    throw new InvalidEpsilon({ message: `invalid epsilon: target_epsilon must be a finite number above 0 (got ${dp.targetEpsilon})` })
  }
  if (dp.maxGradNorm !== undefined && !(Number.isFinite(dp.maxGradNorm) && dp.maxGradNorm > 0)) {
    throw new CtganOptionsError({ message: `maxGradNorm must be a finite number above 0 (got ${dp.maxGradNorm})` })
  }
  if (dp.noiseMultiplier !== undefined && !(Number.isFinite(dp.noiseMultiplier) && dp.noiseMultiplier > 0)) {
    throw new CtganOptionsError({ message: `noiseMultiplier must be a finite number above 0 (got ${dp.noiseMultiplier})` })
  }
}

/**
 * Throws PrivacyBudgetExceeded when no DP-SGD training fits the training's share. The refusal reads only the
 * released row count, so whether a model exists says nothing more of the data than the releases do. (Whether the
 * noise leaves the model anything to learn is the configuration check's question, asked by the service before it
 * accepts a job; a library caller gets the model such a configuration makes.)
 */
export const planPrivacy = async (input: PlanInput, dp: DpOptions): Promise<PrivacyPlan> => {
  const plan = await Effect.runPromise(dpTrainingPlan({ ...input, targetEpsilon: dp.targetEpsilon }))
  const noiseMultiplier = dp.noiseMultiplier ?? plan.noiseMultiplier
  if (noiseMultiplier === null) {
    throw new PrivacyBudgetExceeded({
      message: `privacy budget exceeded: no noise multiplier up to 1e6 keeps ${plan.steps} steps at a sampling rate of ` +
        `${round(plan.sampleRate)} within the training's ε = ${round(plan.budget.training)} of ${dp.targetEpsilon}`
    })
  }
  const mechanism = { delta: plan.delta, noiseMultiplier, sampleRate: plan.sampleRate }
  const within = (steps: number) => epsilonAfter(mechanism, steps) <= plan.budget.training
  if (!within(1)) {
    throw new PrivacyBudgetExceeded({
      message: `privacy budget exceeded: one step with noise multiplier ${noiseMultiplier} already spends more than the training's ε = ${
        round(plan.budget.training)
      } of ${dp.targetEpsilon}`
    })
  }
  let good = 1
  let bad = plan.steps + 1
  if (within(plan.steps)) good = plan.steps
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2)
    if (within(middle)) good = middle
    else bad = middle
  }
  return {
    targetEpsilon: dp.targetEpsilon,
    budget: plan.budget,
    delta: plan.delta,
    sampleRate: plan.sampleRate,
    noiseMultiplier,
    maxGradNorm: dp.maxGradNorm ?? DEFAULT_MAX_GRAD_NORM,
    plannedSteps: plan.steps,
    allowedSteps: good
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000
