import type { ContinuousColumn, SynthColumn, SynthTable, TrainedModel } from "@synth/synth"
import { keyedBloomFilter } from "../keyedBloom.ts"
import { columnFromText } from "../table/columnText.ts"
import { filterRealRows } from "../table/similarityFilter.ts"
import type { Fakers } from "./Fakers.ts"
import type { RealDataFilters } from "./prepareTraining.ts"
import type { ProtectionPlan } from "./ProtectionPlan.ts"
import { sampleSeeds } from "./seeds.ts"

export interface ProtectedSample {
  /** The output: the source's columns in their order, dropped ones left out. */
  readonly table: SynthTable
  readonly filteredRows: number
  readonly copiesKept: number
}

/** The model's output within the value protection's ranges (it learned clamped values; this holds whatever it draws). */
const withinBounds = (table: SynthTable, plan: ProtectionPlan): SynthTable => {
  if (plan.bounds.length === 0) return table
  const bounds = new Map(plan.bounds.map((bound) => [bound.column, bound]))
  return {
    rowCount: table.rowCount,
    columns: table.columns.map((column): SynthColumn => {
      const bound = bounds.get(column.name)
      if (bound === undefined || column.kind !== "continuous") return column
      const values = column.values.map((value) => Math.min(bound.high, Math.max(bound.low, value)))
      return { ...column, values } satisfies ContinuousColumn
    })
  }
}

/** A filter that holds nothing, for a faked column whose real values were not kept (never the case after planning). */
const emptyFilter = keyedBloomFilter(1, 0.5, "empty")

/**
 * Draws `rows` protected rows: the model's rows within their bounds, those equal to a real row drawn again (the
 * similarity filter), the faked columns' fresh values, and every column in the source's order, with the source's form
 * (so the output downloads written as the source was). `model` is null when
 * nothing was learned (every column faked or dropped). Deterministic for a seed.
 */
export const sampleProtected = (
  plan: ProtectionPlan,
  model: TrainedModel | null,
  filters: RealDataFilters | null,
  fakers: Fakers,
  rows: number,
  seed: number,
  onProgress?: (rowsDone: number) => void
): ProtectedSample => {
  const seeds = sampleSeeds(seed)
  const drawn = model === null ? { rowCount: rows, columns: [] } : withinBounds(model.sample(rows, seed, onProgress), plan)
  const rowFilter = filters?.rows ?? null
  const filtered = model !== null && plan.settings.similarityFilter && rowFilter !== null
    ? filterRealRows(drawn, rowFilter.mightContain, (count, round) => withinBounds(model.sample(count, seeds.redraw(round)), plan))
    : { table: drawn, filteredRows: 0, copiesKept: 0 }
  const learned = new Map(filtered.table.columns.map((column) => [column.name, column]))
  const fakePlans = new Map(plan.fakes.map((fake) => [fake.column, fake.plan]))
  const columns = plan.columns.flatMap((column, index): Array<SynthColumn> => {
    if (column.handling === "drop") return []
    if (column.handling === "fake") {
      const texts = fakers.fake(fakePlans.get(column.name), rows, seeds.fake(index), filters?.values.get(column.name) ?? emptyFilter)
      const faked = columnFromText(column.name, column.type, texts)
      return [faked.kind === "continuous" ? { ...faked, sourceFormat: column.sourceFormat } : faked]
    }
    return [learned.get(column.name)!]
  })
  onProgress?.(rows)
  const table: SynthTable = plan.sourceForm === undefined
    ? { rowCount: rows, columns }
    : { rowCount: rows, columns, form: plan.sourceForm }
  return { table, filteredRows: filtered.filteredRows, copiesKept: filtered.copiesKept }
}
