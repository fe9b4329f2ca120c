import {
  drawAccepted,
  type GenerationRules,
  rowAcceptor,
  type RulesUnmet,
  steeringCategories,
  type TrainedModel
} from "@synth/synth"
import { distinctFakes } from "./distinctFakes.ts"
import type { Fakers } from "./Fakers.ts"
import type { RealDataFilters } from "./prepareTraining.ts"
import type { ProtectionPlan } from "./ProtectionPlan.ts"
import { drawFakes, drawPublishedRows, type ProtectedSample, publishedTable, sampleProtected } from "./sampleProtected.ts"
import { sampleSeeds } from "./seeds.ts"

export type RuledSample =
  | { readonly ok: true; readonly sample: ProtectedSample }
  | { readonly ok: false; readonly refusal: RulesUnmet }

/** The model steered towards the conditions' categories where it can be (CTGAN), as it is otherwise. */
const steered = (model: TrainedModel | null, rules: GenerationRules): TrainedModel | null => {
  const categories = steeringCategories(rules.conditions)
  const steer = model?.sampleConditioned
  if (model === null || steer === undefined || categories.length === 0) return model
  return { ...model, sample: (rows, seed, onProgress) => steer(rows, seed, categories, onProgress) }
}

/**
 * A protected sample whose every row obeys the constraints and meets the conditions (issue 26). The rules are
 * checked on the rows as the output publishes them, after the protections (bounds clamped, decimals written, real
 * rows redrawn): rows that break one are dropped and more are drawn (drawAccepted's budget), so no protection can
 * undo a constraint. The faked columns are drawn once for the kept rows, and a unique constraint on one of them gets
 * fresh fakes where they repeat. Without rules, exactly sampleProtected.
 */
export const sampleWithRules = (
  plan: ProtectionPlan,
  model: TrainedModel | null,
  filters: RealDataFilters | null,
  fakers: Fakers,
  rows: number,
  seed: number,
  rules: GenerationRules,
  onProgress?: (rowsDone: number) => void
): RuledSample => {
  if (rules.constraints.length === 0 && rules.conditions.length === 0) {
    return { ok: true, sample: sampleProtected(plan, model, filters, fakers, rows, seed, onProgress) }
  }
  const seeds = sampleSeeds(seed)
  const source = steered(model, rules)
  let filteredRows = 0
  let copiesKept = 0
  const learned = drawAccepted({
    rows,
    constraints: rules.constraints,
    conditions: rules.conditions,
    draw: (count, round, onDrawn) => {
      const drawn = drawPublishedRows(plan, source, filters, count, seeds.batch(round), onDrawn)
      filteredRows += drawn.filteredRows
      copiesKept += drawn.copiesKept
      return drawn.table
    },
    ...(onProgress === undefined ? {} : { onProgress })
  })
  if (!learned.ok) return learned
  const assemble = (fakes: ReadonlyMap<string, ReadonlyArray<string | null>>) => publishedTable(plan, learned.table, fakes, rows)
  const fakes = distinctFakes(plan, rules.constraints, fakers, filters, seed, assemble, drawFakes(plan, fakers, filters, rows, seed))
  if (!fakes.ok) {
    const failures = [{ field: `constraints[${fakes.index}]`, rule: fakes.rule, rows: fakes.repeated }]
    const refusal: RulesUnmet = { reason: "constraints_unmet", message: fakes.message, rows, kept: rows - fakes.repeated, drawn: learned.drawn, budget: learned.drawn, failures }
    return { ok: false, refusal }
  }
  const table = assemble(fakes.fakes)
  // The guarantee, checked on the very rows the output holds: a row failing here is a bug, never a user's problem.
  const obeying = rowAcceptor(rules.constraints, rules.conditions).take(table).length
  if (obeying !== rows) throw new Error(`${rows - obeying} output rows break the generation's constraints or conditions`)
  return { ok: true, sample: { table, filteredRows, copiesKept } }
}
