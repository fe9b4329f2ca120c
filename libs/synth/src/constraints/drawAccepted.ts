import type { SynthTable } from "../table.ts"
import { collectRows } from "./collectRows.ts"
import { type RuleFailures, rowAcceptor } from "./rowRules.ts"
import type { Condition, Constraint } from "./rules.ts"

/**
 * Rejection sampling with a bounded budget: rows are drawn in batches and those meeting every rule kept, until
 * `rows` are kept or the budget is spent. The first batch is `rows` rows of the request's own seed (so a request whose
 * rows all pass gets the rows it would have got without rules); later batches are sized by the share kept so far.
 */

/** Draws per row asked for, at most: a rule the model meets less often than 1 row in 100 is refused. */
export const drawsPerRow = 100
/** The budget never falls below this (a request for a few rows still gets a fair search)... */
export const minimumBudget = 10_000
/** ...nor rises above this (a 10-million-row request must meet its rules at least once in two draws). */
export const maximumBudget = 20_000_000

export const rejectionBudget = (rows: number): number => Math.min(maximumBudget, Math.max(minimumBudget, drawsPerRow * rows))

/** The largest batch after the first, so that a search never holds more than a few batches' rows at once. */
const maximumBatch = 65_536

/** The rules could not be met within the budget: the job fails with this message (HTTP: the job's error). */
export interface RulesUnmet {
  readonly reason: "conditions_unmet" | "constraints_unmet"
  readonly message: string
  readonly rows: number
  readonly kept: number
  readonly drawn: number
  readonly budget: number
  readonly failures: ReadonlyArray<RuleFailures>
}

export type DrawOutcome =
  | { readonly ok: true; readonly table: SynthTable; readonly drawn: number }
  | { readonly ok: false; readonly refusal: RulesUnmet }

export interface DrawRequest {
  readonly rows: number
  /**
   * `count` rows of the model; round 0 is the request's own seed, each later round a seed of its own. `onDrawn`, when
   * given, hears the rows of the batch drawn so far.
   */
  readonly draw: (count: number, round: number, onDrawn?: (rowsDrawn: number) => void) => SynthTable
  readonly constraints: ReadonlyArray<Constraint>
  readonly conditions: ReadonlyArray<Condition>
  readonly budget?: number
  readonly onProgress?: (rowsDone: number) => void
}

const count = (value: number) => value.toLocaleString("en-US")

const refusalOf = (request: DrawRequest, kept: number, drawn: number, budget: number, failures: ReadonlyArray<RuleFailures>): RulesUnmet => {
  const conditionsFailed = failures.some((failure) => failure.field.startsWith("conditions."))
  const what = conditionsFailed ? "the conditions" : "the constraints"
  const broken = [...failures].sort((a, b) => b.rows - a.rows).map((failure) => `${failure.field} (${failure.rule}) ${count(failure.rows)}`).join("; ")
  const stoppedEarly = drawn < budget ? `, stopped early since the rest of the budget (${count(budget)} draws) would not have found them` : ` (the budget: ${drawsPerRow} draws per row asked for, ${count(minimumBudget)} at least, ${count(maximumBudget)} at most)`
  return {
    reason: conditionsFailed ? "conditions_unmet" : "constraints_unmet",
    message: `Only ${count(kept)} of the ${count(request.rows)} rows asked for met ${what} after ${count(drawn)} draws${stoppedEarly}. ` +
      `Rows that broke each rule: ${broken}. The model rarely produces such rows: widen the conditions, ask for fewer rows, or check that the rules can hold together.`,
    rows: request.rows,
    kept,
    drawn,
    budget,
    failures
  }
}

export const drawAccepted = (request: DrawRequest): DrawOutcome => {
  const budget = request.budget ?? rejectionBudget(request.rows)
  const acceptor = rowAcceptor(request.constraints, request.conditions)
  const collected = collectRows(request.rows)
  // Progress is the rows kept, never going back; while the first batch is drawn (often the whole job) its rows
  // count half, since how many of them the rules keep is not known before they are checked.
  let reported = 0
  const report = (rowsDone: number) => {
    if (rowsDone <= reported) return
    reported = rowsDone
    request.onProgress?.(rowsDone)
  }
  let drawn = 0
  for (let round = 0; collected.rowCount() < request.rows; round++) {
    const kept = collected.rowCount()
    const needed = request.rows - kept
    // Past a tenth of the budget, the share kept so far says whether the rest of it can be enough.
    const hopeless = drawn >= budget / 10 && (kept / drawn) * (budget - drawn) < needed / 2
    if (drawn >= budget || hopeless) return { ok: false, refusal: refusalOf(request, kept, drawn, budget, acceptor.failures()) }
    const size = round === 0
      ? request.rows
      : kept === 0
      ? drawn * 4
      : Math.ceil((needed / (kept / drawn)) * 1.2) + 16
    const count = Math.max(1, Math.min(size, round === 0 ? size : maximumBatch, budget - drawn))
    const batch = round === 0 && request.onProgress !== undefined
      ? request.draw(count, round, (rowsDrawn) => report(Math.floor(rowsDrawn / 2)))
      : request.draw(count, round)
    drawn += batch.rowCount
    collected.add(batch, acceptor.take(batch))
    report(collected.rowCount())
  }
  return { ok: true, table: collected.finish(), drawn }
}
