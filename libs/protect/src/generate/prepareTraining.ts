import type { ColumnHandling, ProtectionCounts, ProtectionSettings } from "@synth/contracts"
import { type CategoricalColumn, makeRandom, type Random, type SynthColumn, type SynthTable } from "@synth/synth"
import { randomBytes } from "node:crypto"
import { holdoutRows } from "../holdout.ts"
import type { KeyedBloomFilter } from "../keyedBloom.ts"
import type { ColumnPlan } from "../roles/ColumnPlan.ts"
import { resolveColumnRoles, type ScanSummary } from "../roles/resolveColumnRoles.ts"
import { columnText } from "../table/columnText.ts"
import { hashColumn } from "../table/keyedHash.ts"
import { protectRareCategories } from "../table/rareCategories.ts"
import { protectRareCombinations } from "../table/rareCombinations.ts"
import { realRowFilter } from "../table/similarityFilter.ts"
import { protectTails } from "../table/valueProtection.ts"
import type { Fakers } from "./Fakers.ts"
import type { PlannedColumn, ProtectionPlan } from "./ProtectionPlan.ts"
import { protectionSeeds } from "./seeds.ts"

/** At most this many rows are held out, whatever the share. */
export const holdoutMaxRows = 10_000

export interface PreparationInput {
  /** The whole source table. */
  readonly table: SynthTable
  readonly scan: ScanSummary
  readonly overrides: Readonly<Record<string, ColumnHandling>>
  readonly settings: ProtectionSettings
  /** The generator's seed. */
  readonly seed: number
  /** dp-ctgan: its DP preprocessing bounds values and drops rare categories under ε, so these protections stand aside. */
  readonly differentiallyPrivate: boolean
  /**
   * Groups of string and boolean columns under a fixed-combinations constraint: their rare-category protection is
   * of the combination (rareCombinations.ts), so that it never invents one. None when absent.
   */
  readonly protectTogether?: ReadonlyArray<ReadonlyArray<string>>
}

/** The checks against the real data the output goes through, kept beside the model (not in it). */
export interface RealDataFilters {
  readonly rows: KeyedBloomFilter | null
  readonly values: ReadonlyMap<string, KeyedBloomFilter>
}

export interface PreparedTraining {
  readonly columns: ReadonlyArray<ColumnPlan>
  /** What the model trains on: the training rows' learned columns, protected. */
  readonly learned: SynthTable
  readonly plan: ProtectionPlan
  readonly filters: RealDataFilters
  readonly counts: Pick<ProtectionCounts, "redrawnValues" | "rareCategoryRows">
  readonly trainingRows: number
  readonly holdoutRows: number
}

const takeRows = (column: SynthColumn, rows: Uint32Array): SynthColumn => {
  if (column.kind === "categorical") return { ...column, codes: Int32Array.from(rows, (row) => column.codes[row]!) }
  const missing = column.missing === null ? null : Uint8Array.from(rows, (row) => column.missing![row]!)
  return {
    ...column,
    values: Float64Array.from(rows, (row) => column.values[row]!),
    missing: missing !== null && missing.includes(1) ? missing : null
  }
}

/** The rows not held out, ascending. */
const trainingRowsOf = (rowCount: number, held: Uint32Array): Uint32Array => {
  const isHeld = new Uint8Array(rowCount)
  for (const row of held) isHeld[row] = 1
  const rows = new Uint32Array(rowCount - held.length)
  let next = 0
  for (let row = 0; row < rowCount; row++) if (isHeld[row] === 0) rows[next++] = row
  return rows
}

/** Identifiers and direct identifiers a request keeps or hashes are published as asked: no protection rewrites them. */
const protectable = (plan: ColumnPlan) => plan.role === "data" || plan.role === "quasi_identifier"

interface LearnedColumn {
  readonly training: SynthColumn
  readonly real: SynthColumn
  readonly bounds: { readonly low: number; readonly high: number } | null
  readonly redrawn: number
  readonly replacedRows: number
}

const learnColumn = (
  source: SynthColumn,
  plan: ColumnPlan,
  input: PreparationInput,
  trainingRows: Uint32Array,
  hashKey: string | null,
  draws: { readonly tails: Random; readonly rareCategories: Random },
  protectedWithItsGroup: CategoricalColumn | undefined
): LearnedColumn => {
  const real = plan.handling === "hash" ? hashColumn(source, hashKey!) : source
  if (protectedWithItsGroup !== undefined) return { training: protectedWithItsGroup, real, bounds: null, redrawn: 0, replacedRows: 0 }
  const training = takeRows(real, trainingRows)
  const k = input.settings.rareCategoryThreshold
  if (input.differentiallyPrivate || !protectable(plan)) return { training, real, bounds: null, redrawn: 0, replacedRows: 0 }
  if (training.kind === "continuous") {
    if (!input.settings.valueProtection) return { training, real, bounds: null, redrawn: 0, replacedRows: 0 }
    const tails = protectTails(training, k, draws.tails)
    return { training: tails.column, real, bounds: tails.bounds, redrawn: tails.redrawn, replacedRows: 0 }
  }
  if (!input.settings.rareCategoryProtection) return { training, real, bounds: null, redrawn: 0, replacedRows: 0 }
  const protectedColumn = protectRareCategories(training, k, draws.rareCategories)
  return { training: protectedColumn.column, real, bounds: null, redrawn: 0, replacedRows: protectedColumn.replacedRows }
}

/**
 * The training rows of each fixed-combinations group, protected as combinations, by column name; groups whose
 * columns are not all learned categories the protection applies to stay with the per-column protection.
 */
const protectGroups = (
  input: PreparationInput,
  columns: ReadonlyArray<ColumnPlan>,
  trainingRows: Uint32Array,
  random: Random
): { readonly columns: ReadonlyMap<string, CategoricalColumn>; readonly replacedRows: number } => {
  const protectedColumns = new Map<string, CategoricalColumn>()
  let replacedRows = 0
  if (input.differentiallyPrivate || !input.settings.rareCategoryProtection) return { columns: protectedColumns, replacedRows }
  for (const group of input.protectTogether ?? []) {
    const members = group.map((name) => {
      const index = columns.findIndex((plan) => plan.name === name)
      const source = input.table.columns[index]
      const plan = columns[index]
      const applies = plan !== undefined && plan.handling === "keep" && protectable(plan) && source?.kind === "categorical"
      return applies ? takeRows(source, trainingRows) as CategoricalColumn : null
    })
    if (members.some((member) => member === null)) continue
    const protectedGroup = protectRareCombinations(members as Array<CategoricalColumn>, input.settings.rareCategoryThreshold, random)
    protectedGroup.columns.forEach((column) => protectedColumns.set(column.name, column))
    replacedRows += protectedGroup.replacedRows
  }
  return { columns: protectedColumns, replacedRows }
}

/**
 * Everything a protected generation decides before training (docs/privacy.md): each column's role and handling, the
 * holdout, the table the model learns (training rows; kept and hashed columns; the tails of numbers, dates and
 * datetimes redrawn inside their protected range and rare categories replaced), the fake-value plans, and the filters that keep real rows and real values out
 * of the output.
 */
export const prepareTraining = (input: PreparationInput, fakers: Fakers): PreparedTraining => {
  const { settings, table } = input
  const seeds = protectionSeeds(input.seed)
  const columns = resolveColumnRoles(table.columns, input.scan, input.overrides)
  const held = holdoutRows(table.rowCount, { share: settings.holdoutShare, maxRows: holdoutMaxRows }, input.seed)
  const trainingRows = trainingRowsOf(table.rowCount, held)
  // A hash key from the operating system, not the seed: the seed is shown in the record, the key must stay unknown.
  const hashKey = columns.some((plan) => plan.handling === "hash") ? randomBytes(32).toString("base64") : null
  const draws = { tails: makeRandom(seeds.tails), rareCategories: makeRandom(seeds.rareCategories) }
  const groups = protectGroups(input, columns, trainingRows, makeRandom(seeds.rareCombinations))
  const learned: Array<SynthColumn> = []
  const realLearned: Array<SynthColumn> = []
  const bounds: Array<ProtectionPlan["bounds"][number]> = []
  const fakes: Array<ProtectionPlan["fakes"][number]> = []
  const valueFilters = new Map<string, KeyedBloomFilter>()
  let redrawnValues = 0
  let rareCategoryRows = groups.replacedRows
  columns.forEach((plan, index) => {
    const source = table.columns[index]!
    if (plan.handling === "drop") return
    if (plan.handling === "fake") {
      const faked = fakers.plan(
        { name: plan.name, type: plan.type, kind: plan.piiType ?? "identifier", values: columnText(source) },
        { seed: seeds.fakePlan(index), rareThreshold: settings.rareCategoryThreshold, learnFromValues: !input.differentiallyPrivate }
      )
      fakes.push({ column: plan.name, plan: faked.plan })
      valueFilters.set(plan.name, faked.realValues)
      return
    }
    const column = learnColumn(source, plan, input, trainingRows, hashKey, draws, groups.columns.get(plan.name))
    learned.push(column.training)
    realLearned.push(column.real)
    if (column.bounds !== null) bounds.push({ column: plan.name, ...column.bounds })
    redrawnValues += column.redrawn
    rareCategoryRows += column.replacedRows
  })
  const rowFilter = settings.similarityFilter && realLearned.length > 0
    ? realRowFilter({ rowCount: table.rowCount, columns: realLearned }, seeds.rowFilterKey)
    : null
  const plannedColumns: Array<PlannedColumn> = columns.map((plan, index) => {
    const source = table.columns[index]!
    return { ...plan, sourceFormat: source.kind === "continuous" ? source.sourceFormat : null }
  })
  return {
    columns,
    learned: { rowCount: trainingRows.length, columns: learned },
    plan: {
      settings,
      differentiallyPrivate: input.differentiallyPrivate,
      columns: plannedColumns,
      bounds,
      fakes,
      hashKey,
      holdout: { share: settings.holdoutShare, maxRows: holdoutMaxRows },
      ...(table.form === undefined ? {} : { sourceForm: table.form })
    },
    filters: { rows: rowFilter, values: valueFilters },
    counts: { redrawnValues, rareCategoryRows },
    trainingRows: trainingRows.length,
    holdoutRows: held.length
  }
}
