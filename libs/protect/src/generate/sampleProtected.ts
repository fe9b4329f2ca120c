import type { ContinuousColumn, SynthColumn, SynthTable, TrainedModel } from "@synth/synth"
import { formKeys } from "@synth/tabular"
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

/**
 * The model's rows as the output will publish them: within the value protection's ranges (the model learned
 * protected values; this holds whatever it draws), and floats at the most decimals the source wrote (what the
 * download writes). The similarity filter compares these, so a row that differed from a real one only beyond the
 * written decimals cannot slip through as an exact copy of it.
 */
const asPublished = (table: SynthTable, plan: ProtectionPlan): SynthTable => {
  const bounds = new Map(plan.bounds.map((bound) => [bound.column, bound]))
  const decimals = (name: string) => {
    const written = plan.sourceForm?.columns[name]?.[formKeys.maxDecimals]
    return written === undefined ? null : Number(written)
  }
  return {
    ...table,
    columns: table.columns.map((column): SynthColumn => {
      if (column.kind !== "continuous") return column
      const bound = bounds.get(column.name)
      const places = column.type === "float" ? decimals(column.name) : null
      if (bound === undefined && places === null) return column
      const scale = places === null ? 0 : 10 ** places
      const values = column.values.map((value) => {
        const bounded = bound === undefined ? value : Math.min(bound.high, Math.max(bound.low, value))
        return places === null ? bounded : Math.round(bounded * scale) / scale
      })
      return { ...column, values } satisfies ContinuousColumn
    })
  }
}

/** A filter that holds nothing, for a faked column whose real values were not kept (never the case after planning). */
const emptyFilter = keyedBloomFilter(1, 0.5, "empty")

/** Rows of the learned columns, as the output publishes them. */
export interface PublishedRows {
  readonly table: SynthTable
  readonly filteredRows: number
  readonly copiesKept: number
}

/**
 * The model's rows within their bounds and on the written decimals, those equal to a real row drawn again (the
 * similarity filter). No columns when nothing was learned. Deterministic for a seed.
 */
export const drawPublishedRows = (
  plan: ProtectionPlan,
  model: TrainedModel | null,
  filters: RealDataFilters | null,
  rows: number,
  seed: number,
  onProgress?: (rowsDone: number) => void
): PublishedRows => {
  if (model === null) return { table: { rowCount: rows, columns: [] }, filteredRows: 0, copiesKept: 0 }
  const seeds = sampleSeeds(seed)
  const drawn = asPublished(model.sample(rows, seed, onProgress), plan)
  const rowFilter = filters?.rows ?? null
  return plan.settings.similarityFilter && rowFilter !== null
    ? filterRealRows(drawn, rowFilter.mightContain, (count, round) => asPublished(model.sample(count, seeds.redraw(round)), plan))
    : { table: drawn, filteredRows: 0, copiesKept: 0 }
}

/** The real values of a faked column, which its fakes must avoid. */
export const realValuesOf = (filters: RealDataFilters | null, column: string) => filters?.values.get(column) ?? emptyFilter

/** Fresh values of every faked column, as text (null: missing), by column name. */
export const drawFakes = (
  plan: ProtectionPlan,
  fakers: Fakers,
  filters: RealDataFilters | null,
  rows: number,
  seed: number
): Map<string, ReadonlyArray<string | null>> => {
  const seeds = sampleSeeds(seed)
  const fakePlans = new Map(plan.fakes.map((fake) => [fake.column, fake.plan]))
  const fakes = new Map<string, ReadonlyArray<string | null>>()
  plan.columns.forEach((column, index) => {
    if (column.handling === "fake") fakes.set(column.name, fakers.fake(fakePlans.get(column.name), rows, seeds.fake(index), realValuesOf(filters, column.name)))
  })
  return fakes
}

/** The output: every column in the source's order (dropped ones left out), faked ones typed, in the source's form. */
export const publishedTable = (
  plan: ProtectionPlan,
  learned: SynthTable,
  fakes: ReadonlyMap<string, ReadonlyArray<string | null>>,
  rows: number
): SynthTable => {
  const learnedColumns = new Map(learned.columns.map((column) => [column.name, column]))
  const columns = plan.columns.flatMap((column): Array<SynthColumn> => {
    if (column.handling === "drop") return []
    if (column.handling === "fake") {
      const faked = columnFromText(column.name, column.type, fakes.get(column.name)!)
      return [faked.kind === "continuous" ? { ...faked, sourceFormat: column.sourceFormat } : faked]
    }
    return [learnedColumns.get(column.name)!]
  })
  return plan.sourceForm === undefined ? { rowCount: rows, columns } : { rowCount: rows, columns, form: plan.sourceForm }
}

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
  const learned = drawPublishedRows(plan, model, filters, rows, seed, onProgress)
  const table = publishedTable(plan, learned.table, drawFakes(plan, fakers, filters, rows, seed), rows)
  onProgress?.(rows)
  return { table, filteredRows: learned.filteredRows, copiesKept: learned.copiesKept }
}
