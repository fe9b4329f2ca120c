import type { ColumnHandling, ColumnRole } from "@synth/protect"
import type { SynthColumn, SynthTable } from "@synth/synth"

/** A column as the generator resolved it (its record's `columns`): names, roles and handlings, never values. */
export interface GeneratorColumn {
  readonly name: string
  readonly role: ColumnRole
  readonly handling: ColumnHandling
  /** The scan's personal type (`email_address`...), null for data columns and identifiers found by uniqueness. */
  readonly piiType: string | null
}

/** A role as prose: "quasi-identifier", "direct identifier". */
export const roleLabel = (role: ColumnRole): string =>
  role === "quasi_identifier" ? "quasi-identifier" : role === "direct_identifier" ? "direct identifier" : role

/**
 * What the evaluation does with a column of the output:
 * - `scored`: learned from the real values (handling `keep`), compared with them by every part;
 * - `faked`: fresh values by design (never real), so comparing them with the real ones measures nothing;
 * - `hashed`: keyed pseudonyms of the real values; without the generator's key they cannot be compared with the
 *   real values they stand for, so they are left out as faked ones are;
 * - `dropped`: not in the output at all.
 * Faked, hashed and dropped columns are still checked for disclosure (see valueDisclosure).
 */
export type ColumnTreatment = "scored" | "faked" | "hashed" | "dropped"

export interface EvaluatedColumn extends GeneratorColumn {
  readonly treatment: ColumnTreatment
}

const treatmentOf = (handling: ColumnHandling): ColumnTreatment => {
  switch (handling) {
    case "keep":
      return "scored"
    case "fake":
      return "faked"
    case "hash":
      return "hashed"
    case "drop":
      return "dropped"
  }
}

export interface EvaluatedTables {
  /** The real columns that were learned as they are (all of them without role information). */
  readonly real: SynthTable
  /** The synthetic table without its faked and hashed columns. */
  readonly synthetic: SynthTable
  /** Every column of the generator's plan with its treatment; null for a generator without column roles. */
  readonly columns: ReadonlyArray<EvaluatedColumn> | null
  /** Columns the output holds by design with other values than the real ones (faked, hashed): present by name only. */
  readonly replaced: ReadonlySet<string>
  /** Columns the generator left out of its output. */
  readonly dropped: ReadonlySet<string>
}

const withColumns = (table: SynthTable, keep: (column: SynthColumn) => boolean): SynthTable => ({
  rowCount: table.rowCount,
  columns: table.columns.filter(keep)
})

/**
 * The parts of the two tables that quality can be measured on. Without role information (a generator from before
 * roles existed) both tables are kept whole, as evaluations always did. A real column the plan does not name is kept.
 */
export const evaluatedTables = (
  real: SynthTable,
  synthetic: SynthTable,
  plan: ReadonlyArray<GeneratorColumn> | null | undefined
): EvaluatedTables => {
  if (plan === null || plan === undefined) return { real, synthetic, columns: null, replaced: new Set(), dropped: new Set() }
  const columns = plan.map((column): EvaluatedColumn => ({ ...column, treatment: treatmentOf(column.handling) }))
  const notScored = new Set(columns.filter(({ treatment }) => treatment !== "scored").map(({ name }) => name))
  return {
    real: withColumns(real, ({ name }) => !notScored.has(name)),
    synthetic: withColumns(synthetic, ({ name }) => !notScored.has(name)),
    columns,
    replaced: new Set(columns.filter(({ treatment }) => treatment === "faked" || treatment === "hashed").map(({ name }) => name)),
    dropped: new Set(columns.filter(({ treatment }) => treatment === "dropped").map(({ name }) => name))
  }
}

/** The real table as the output should look: without the dropped columns (the structure check's reference). */
export const expectedOutput = (real: SynthTable, tables: EvaluatedTables): SynthTable =>
  withColumns(real, ({ name }) => !tables.dropped.has(name))
