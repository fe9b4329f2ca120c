import { checkProtectedConditions, checkRuleHandlings, type PreparedTraining, type ProtectionPlan } from "@synth/protect"
import {
  constrainedModel,
  type Constraint,
  factsOfColumnTypes,
  type GenerationRules,
  isConstrainedArtifact,
  loadModel,
  readConstrainedArtifact,
  type RuleProblem,
  type RulesUnmet,
  type SynthTable,
  type TrainedModel,
  validateRules,
  validateRulesOnTable
} from "@synth/synth"
import { Result } from "effect"
import type { RuleRequest, WorkerMessage } from "./protocol.ts"

/**
 * A job's constraints and conditions in the worker: checked against the table (training) or the stored plan
 * (sampling) before anything is drawn, and the refusals the job fails with when they cannot be met.
 */
type Refused = Extract<WorkerMessage, { kind: "refused" }>

export type RulesOrRefusal = { readonly ok: true; readonly rules: GenerationRules } | { readonly ok: false; readonly refused: Refused }

const invalidRules = (problems: ReadonlyArray<RuleProblem>): { readonly ok: false; readonly refused: Refused } => ({
  ok: false,
  refused: {
    kind: "refused",
    reason: "invalid_rules",
    problems,
    message: `The constraints or conditions do not fit the dataset: ${problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ")}.`
  }
})

export const rulesUnmet = (refusal: RulesUnmet): Refused => ({ kind: "refused", reason: refusal.reason, message: refusal.message })

/** A training job's rules, checked against the whole table: every fact exact, every constraint counted on the rows. */
export const trainingRules = (request: RuleRequest, table: SynthTable): RulesOrRefusal => {
  const validated = validateRulesOnTable(request, table)
  return validated.ok ? validated : invalidRules(validated.problems)
}

/** Once the roles are resolved and the rows protected: rules the handlings or the protections rule out. */
export const preparedRules = (rules: GenerationRules, prepared: PreparedTraining): RulesOrRefusal => {
  const problems = [
    ...checkRuleHandlings(rules, prepared.columns),
    ...checkProtectedConditions(rules.conditions, prepared.plan, prepared.learned)
  ]
  return problems.length === 0 ? { ok: true, rules } : invalidRules(problems)
}

/**
 * A later sample's rules: the model's stored constraints and the request's conditions, checked against the plan and
 * against the categories the model knows (a one-row draw lists them).
 */
export const samplingRules = (
  request: RuleRequest,
  constraints: ReadonlyArray<Constraint>,
  plan: ProtectionPlan,
  model: TrainedModel | null
): RulesOrRefusal => {
  const validated = validateRules({ conditions: request.conditions }, factsOfColumnTypes(plan.columns))
  if (!validated.ok) return invalidRules(validated.problems)
  const rules = { constraints, conditions: validated.rules.conditions }
  const known = model === null || rules.conditions.length === 0 ? null : model.sample(1, 0)
  const problems = [...checkRuleHandlings(rules, plan.columns), ...checkProtectedConditions(rules.conditions, plan, known)]
  return problems.length === 0 ? { ok: true, rules } : invalidRules(problems)
}

/** A model trained before the protections: its conditions checked against the columns it draws (one row names them). */
export const unprotectedSamplingRules = (request: RuleRequest, model: TrainedModel): RulesOrRefusal => {
  if (request.conditions === undefined) return { ok: true, rules: { constraints: [], conditions: [] } }
  const validated = validateRules({ conditions: request.conditions }, factsOfColumnTypes(model.sample(1, 0).columns))
  return validated.ok ? validated : invalidRules(validated.problems)
}

/** A protected artifact's model: as stored, or its constrained wrapper with the constraints every sample obeys. */
export const loadStoredModel = async (
  json: unknown
): Promise<{ readonly model: TrainedModel | null; readonly constraints: ReadonlyArray<Constraint> } | { readonly error: string }> => {
  if (json === null) return { model: null, constraints: [] }
  if (!isConstrainedArtifact(json)) {
    const model = await loadModel(json)
    return Result.isFailure(model) ? { error: model.failure.message } : { model: model.success, constraints: [] }
  }
  const stored = readConstrainedArtifact(json)
  if (!stored.ok) return { error: stored.message }
  if (stored.model === null) return { model: null, constraints: stored.constraints }
  const inner = await loadModel(stored.model)
  if (Result.isFailure(inner)) return { error: inner.failure.message }
  return { model: constrainedModel(inner.success, stored.transforms), constraints: stored.constraints }
}
