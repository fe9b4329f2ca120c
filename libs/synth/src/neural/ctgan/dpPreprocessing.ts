import { allocateDelta, allocatePreprocessing, budgetSplit, type ColumnKind, deltaSplit } from "../../privacy/budgetSplit.ts"
import { privacyLedger, type Release } from "../../privacy/ledger.ts"
import { noisyCount } from "../../privacy/noisyCounts.ts"
import type { Random } from "../../random.ts"
import type { SynthColumn, SynthTable } from "../../table.ts"
import { fitPrivateTableTransformer } from "../../transform/privateTransformer.ts"
import type { TableTransformer } from "../../transform/index.ts"

/**
 * Everything DP-CTGAN learns from the data before DP-SGD, each piece a release in the ledger (privacy/ledger.ts),
 * spending the preprocessing's share of the target ε (privacy/budgetSplit.ts):
 * 1. the row count, with geometric noise: it sets δ = min(1e-5, 1 / (10 · ñ)), the sampling rate and the steps;
 * 2. per column, its bounds, categories and missing values (transform/privateTransformer.ts), with δ's preprocessing
 *    half shared by the string columns' partition selections.
 * What training uses afterwards: the transformer and conditional-sampler weights (functions of the releases and the
 * schema), the training rows (each row changed on its own by the releases), and the released row count.
 */
export interface DpPreprocessing {
  /** The released row count, at least 1: what δ, q and the steps are planned for. */
  readonly rows: number
  readonly transformer: TableTransformer
  /** The rows DP-SGD trains on: clamped to the released bounds, unreleased labels redrawn. */
  readonly table: SynthTable
  /** Per categorical column, its slots' noisy counts: what the conditional vectors are drawn by. */
  readonly slotWeights: ReadonlyArray<Float64Array>
  readonly releases: ReadonlyArray<Release>
  /** Σε and Σδ of the releases: at most the preprocessing's shares. */
  readonly epsilon: number
  readonly delta: number
}

const kindOf = (column: SynthColumn): ColumnKind => (column.kind === "continuous" ? "continuous" : column.type)

export const dpPreprocess = (table: SynthTable, targetEpsilon: number, random: Random): DpPreprocessing => {
  const kinds = table.columns.map(kindOf)
  const allocation = allocatePreprocessing(budgetSplit(targetEpsilon).preprocessing, kinds)
  const ledger = privacyLedger()
  const rows = Math.max(1, noisyCount(ledger, "rows", table.rowCount, allocation.rowCount, random).count)
  const deltas = allocateDelta(deltaSplit(rows).preprocessing, kinds)
  const columns = allocation.columns.map((epsilon, i) => ({ epsilon, delta: deltas[i]! }))
  const fit = fitPrivateTableTransformer(table, columns, ledger, random)
  return { rows, ...fit, releases: ledger.releases(), epsilon: ledger.epsilon(), delta: ledger.delta() }
}
