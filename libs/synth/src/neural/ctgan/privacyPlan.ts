/**
 * DP-CTGAN's privacy plan, before any training: the same δ, sampling rate, steps and searched noise multiplier as the
 * service's DP configuration check (privacy/dpPlan.ts), so what `POST /generators/dp/validate-config` promises is
 * what training does; then how many of the planned steps fit within the target (all of them with the searched σ;
 * fewer when a σ is imposed), found by bisection on the accountant (ε grows with the steps).
 */
import { Effect } from "effect"
import { assessDpConfiguration, defaultDelta, noiseMultiplierFor, privacySpent } from "../../privacy/index.ts"
import { CtganOptionsError, DEFAULT_MAX_GRAD_NORM, type DpOptions, InvalidEpsilon, PrivacyBudgetExceeded } from "./options.ts"

export interface PrivacyPlan {
  readonly targetEpsilon: number
  readonly delta: number
  /** q: each row's chance of being in a batch (batch_size / rows), as the accountant assumes: Poisson sampling. */
  readonly sampleRate: number
  readonly noiseMultiplier: number
  readonly maxGradNorm: number
  /** ⌊epochs / q⌋, as Opacus counts the steps of `epochs` passes. */
  readonly plannedSteps: number
  /** The most steps whose ε stays within the target (≤ plannedSteps). */
  readonly allowedSteps: number
}

export const epsilonAfter = (plan: Pick<PrivacyPlan, "delta" | "noiseMultiplier" | "sampleRate">, steps: number): number =>
  steps === 0 ? 0 : privacySpent({ noiseMultiplier: plan.noiseMultiplier, sampleRate: plan.sampleRate, steps }, plan.delta).epsilon

interface PlanInput {
  readonly rows: number
  readonly epochs: number
  readonly batchSize: number
}

const checkEpsilon = (targetEpsilon: number) => {
  if (!(Number.isFinite(targetEpsilon) && targetEpsilon > 0)) {
    throw new InvalidEpsilon({ message: `invalid epsilon: target_epsilon must be a finite number above 0 (got ${targetEpsilon})` })
  }
}

const checkOptions = (rows: number, dp: DpOptions) => {
  if (dp.delta !== undefined && !(dp.delta > 0 && dp.delta < 1 / rows)) {
    throw new CtganOptionsError({ message: `δ must lie between 0 and 1 / rows = ${1 / rows} (got ${dp.delta})` })
  }
  if (dp.maxGradNorm !== undefined && !(Number.isFinite(dp.maxGradNorm) && dp.maxGradNorm > 0)) {
    throw new CtganOptionsError({ message: `maxGradNorm must be a finite number above 0 (got ${dp.maxGradNorm})` })
  }
  if (dp.noiseMultiplier !== undefined && !(Number.isFinite(dp.noiseMultiplier) && dp.noiseMultiplier > 0)) {
    throw new CtganOptionsError({ message: `noiseMultiplier must be a finite number above 0 (got ${dp.noiseMultiplier})` })
  }
}

/** σ as the DP configuration check finds it (default δ), or searched for a given δ, or the one imposed. */
const noiseMultiplierOf = async (input: PlanInput, dp: DpOptions, delta: number, sampleRate: number, steps: number) => {
  if (dp.noiseMultiplier !== undefined) return dp.noiseMultiplier
  if (dp.delta === undefined) {
    const assessment = await Effect.runPromise(
      assessDpConfiguration({ ...input, targetEpsilon: dp.targetEpsilon, maxBatchSize: input.rows })
    )
    if (!assessment.valid || assessment.noiseMultiplier === null) throw new PrivacyBudgetExceeded({ message: assessment.reason ?? "privacy budget exceeded" })
    return assessment.noiseMultiplier
  }
  const searched = noiseMultiplierFor({ epsilon: dp.targetEpsilon, delta, sampleRate, steps })
  if (searched === null) {
    throw new PrivacyBudgetExceeded({ message: `privacy budget exceeded: no noise multiplier keeps ${steps} steps within ε = ${dp.targetEpsilon}` })
  }
  return searched
}

/** Throws InvalidEpsilon or PrivacyBudgetExceeded (the spec's two DP refusals) when no training fits the budget. */
export const planPrivacy = async (input: PlanInput, dp: DpOptions): Promise<PrivacyPlan> => {
  checkEpsilon(dp.targetEpsilon)
  checkOptions(input.rows, dp)
  const delta = dp.delta ?? defaultDelta(input.rows)
  const sampleRate = input.batchSize / input.rows
  const plannedSteps = Math.max(1, Math.floor(input.epochs / sampleRate))
  const noiseMultiplier = await noiseMultiplierOf(input, dp, delta, sampleRate, plannedSteps)
  const mechanism = { delta, noiseMultiplier, sampleRate }
  const within = (steps: number) => epsilonAfter(mechanism, steps) <= dp.targetEpsilon
  if (!within(1)) {
    throw new PrivacyBudgetExceeded({
      message: `privacy budget exceeded: one step with noise multiplier ${noiseMultiplier} already spends more than ε = ${dp.targetEpsilon}`
    })
  }
  let good = 1
  let bad = plannedSteps + 1
  if (within(plannedSteps)) good = plannedSteps
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2)
    if (within(middle)) good = middle
    else bad = middle
  }
  return {
    targetEpsilon: dp.targetEpsilon,
    delta,
    sampleRate,
    noiseMultiplier,
    maxGradNorm: dp.maxGradNorm ?? DEFAULT_MAX_GRAD_NORM,
    plannedSteps,
    allowedSteps: good
  }
}
