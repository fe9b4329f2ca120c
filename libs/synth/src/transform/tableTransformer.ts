import { Result } from "effect"
import { makeRandom, type Random } from "../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthColumn, SynthTable } from "../table.ts"
import { specsFromArtifact, type TransformerArtifact, transformerArtifactOf, type TransformerArtifactError } from "./artifact.ts"
import { categoricalCodec, type CategoricalCodec, type CategoricalSpec, categoricalWidth, fitCategoricalSpec } from "./categoricalColumn.ts"
import { continuousCodec, type ContinuousCodec, type ContinuousSpec, continuousWidth, fitContinuousSpec } from "./continuousColumn.ts"

/**
 * The reversible transformer every neural model works through: a SynthTable's rows to fixed-width float vectors
 * (mode-specific normalisation for numbers, dates and datetimes; bounded one-hot for strings and booleans; missing
 * values as indicators) and model output back to a SynthTable with the input's columns, types and formats.
 * Rows are encoded a batch at a time, so a million-row table never becomes a million-row matrix.
 */
export type ColumnSpec = ContinuousSpec | CategoricalSpec

/** Where a column's parts sit in an encoded row, and which activation a model's output for them needs. */
export interface Span {
  readonly column: number
  /** value: the normalised number (tanh); mode: its mode; category: the one-hot category; missing: [present, missing]. */
  readonly role: "value" | "mode" | "category" | "missing"
  readonly activation: "tanh" | "softmax"
  readonly offset: number
  readonly width: number
}

export interface TableTransformerOptions {
  readonly seed: number
  /** Values per column the mixtures are fitted on at most (a uniform sample); 10,000 by default. */
  readonly maxFitValues?: number
  /** Mixture components per numeric column, as CTGAN: 10. */
  readonly maxModes?: number
  /** A mode is kept when its mixture weight exceeds this, as CTGAN: 0.005. */
  readonly weightThreshold?: number
  /** One-hot width cap per categorical column (the rest share an "other" slot); 300 by default. */
  readonly maxCategories?: number
}

export const DEFAULT_MAX_FIT_VALUES = 10_000
export const DEFAULT_MAX_CATEGORIES = 300

export interface TableDecoder {
  /** Appends `rows` decoded rows from a row-major batch of encoded rows. */
  readonly write: (batch: Float32Array, rows: number) => void
  /** The decoded table (the rows written so far). */
  readonly finish: () => SynthTable
}

export interface TableTransformer {
  readonly columns: ReadonlyArray<ColumnSpec>
  readonly spans: ReadonlyArray<Span>
  /** Floats per encoded row. */
  readonly width: number
  /**
   * The given rows of `table` (one with the fitted columns), encoded row-major into `into` (or a new array of
   * rows × width). Which mode a value is encoded in is drawn from its posterior, so it takes a Random.
   */
  readonly encode: (table: SynthTable, rows: ArrayLike<number>, random: Random, into?: Float32Array) => Float32Array
  /** Per row, the slot (index within its span) of a categorical column's value: what conditional sampling needs. */
  readonly categorySlots: (table: SynthTable, column: number) => Int32Array
  /**
   * A decoder for `rowCount` rows of model output: softmax spans are read by their largest entry, and a shared
   * "other" slot draws one of its categories by frequency with `random`.
   */
  readonly decoder: (rowCount: number, random: Random) => TableDecoder
  /** The fitted transformer as versioned JSON; `tableTransformerFromJSON` reads it back. */
  readonly toJSON: () => TransformerArtifact
}

/** Learns every column's encoding from the table (at least one row). */
export const fitTableTransformer = (table: SynthTable, options: TableTransformerOptions): TableTransformer => {
  const random = makeRandom(options.seed)
  const continuousOptions = {
    maxFitValues: options.maxFitValues ?? DEFAULT_MAX_FIT_VALUES,
    maxModes: options.maxModes ?? 10,
    weightThreshold: options.weightThreshold ?? 0.005
  }
  const maxCategories = options.maxCategories ?? DEFAULT_MAX_CATEGORIES
  const specs = table.columns.map((column): ColumnSpec =>
    column.kind === "continuous"
      ? fitContinuousSpec(column, continuousOptions, random.fork())
      : fitCategoricalSpec(column, maxCategories)
  )
  return tableTransformerOf(specs)
}

type Codec =
  | { readonly kind: "continuous"; readonly spec: ContinuousSpec; readonly codec: ContinuousCodec; readonly offset: number }
  | { readonly kind: "categorical"; readonly spec: CategoricalSpec; readonly codec: CategoricalCodec; readonly offset: number }

interface ColumnDecoder {
  /** Decodes `rows` rows of `batch` (rows of `width` floats) into rows `first` … of the column. */
  readonly decodeRows: (batch: Float32Array, width: number, rows: number, first: number) => void
  readonly finish: (rows: number) => SynthColumn
}

const columnDecoder = (entry: Codec, rowCount: number, random: Random): ColumnDecoder => {
  if (entry.kind === "categorical") {
    const { codec, offset, spec } = entry
    const codes = new Int32Array(rowCount)
    return {
      decodeRows: (batch, width, rows, first) => {
        for (let i = 0; i < rows; i++) codes[first + i] = codec.decode(batch, i * width + offset, random)
      },
      finish: (rows) => ({ kind: "categorical", name: spec.name, type: spec.type, categories: spec.categories, codes: codes.subarray(0, rows) })
    }
  }
  const { codec, offset, spec } = entry
  const values = new Float64Array(rowCount)
  const missing = spec.hasMissing ? new Uint8Array(rowCount) : null
  return {
    decodeRows: (batch, width, rows, first) => {
      for (let i = 0; i < rows; i++) {
        const value = codec.decode(batch, i * width + offset)
        if (value === null) missing![first + i] = 1
        else values[first + i] = value
      }
    },
    finish: (rows) => {
      const written = missing?.subarray(0, rows) ?? null
      return {
        kind: "continuous",
        name: spec.name,
        type: spec.type,
        values: values.subarray(0, rows),
        missing: written !== null && written.includes(1) ? written : null,
        sourceFormat: spec.sourceFormat
      }
    }
  }
}

/** The transformer for fitted specs (from fitting, or read back from an artifact). */
export const tableTransformerOf = (specs: ReadonlyArray<ColumnSpec>): TableTransformer => {
  const spans: Array<Span> = []
  const codecs: Array<Codec> = []
  let width = 0
  specs.forEach((spec, column) => {
    const offset = width
    if (spec.kind === "continuous") {
      codecs.push({ kind: "continuous", spec, codec: continuousCodec(spec), offset })
      const modes = spec.modes.means.length
      spans.push({ column, role: "value", activation: "tanh", offset, width: 1 })
      spans.push({ column, role: "mode", activation: "softmax", offset: offset + 1, width: modes })
      if (spec.hasMissing) spans.push({ column, role: "missing", activation: "softmax", offset: offset + 1 + modes, width: 2 })
      width += continuousWidth(spec)
    } else {
      codecs.push({ kind: "categorical", spec, codec: categoricalCodec(spec), offset })
      spans.push({ column, role: "category", activation: "softmax", offset, width: categoricalWidth(spec) })
      width += categoricalWidth(spec)
    }
  })

  const columnsOf = (table: SynthTable): ReadonlyArray<SynthColumn> => {
    if (table.columns.length !== specs.length || table.columns.some((column, i) => column.name !== specs[i]!.name || column.kind !== specs[i]!.kind)) {
      throw new RangeError("the table's columns are not the ones the transformer was fitted on")
    }
    return table.columns
  }

  const encode = (table: SynthTable, rows: ArrayLike<number>, random: Random, into?: Float32Array): Float32Array => {
    const columns = columnsOf(table)
    const out = into ?? new Float32Array(rows.length * width)
    codecs.forEach((entry, column) => {
      if (entry.kind === "continuous") {
        const source = columns[column] as ContinuousColumn
        for (let i = 0; i < rows.length; i++) entry.codec.encode(source, rows[i]!, random, out, i * width + entry.offset)
      } else {
        const source = columns[column] as CategoricalColumn
        for (let i = 0; i < rows.length; i++) entry.codec.encode(entry.codec.slotAt(source, rows[i]!), out, i * width + entry.offset)
      }
    })
    return out
  }

  const categorySlots = (table: SynthTable, column: number): Int32Array => {
    const entry = codecs[column]
    if (entry?.kind !== "categorical") throw new RangeError(`column ${column} is not categorical`)
    return entry.codec.slotOf(columnsOf(table)[column] as CategoricalColumn)
  }

  const decoder = (rowCount: number, random: Random): TableDecoder => {
    const columns = codecs.map((entry) => columnDecoder(entry, rowCount, random))
    let written = 0
    const write = (batch: Float32Array, rows: number) => {
      if (written + rows > rowCount) throw new RangeError(`the decoder holds ${rowCount} rows; ${written + rows} were written`)
      // Column by column: each column's loop stays on one codec (the "other" slot's draws go column by column too).
      for (const column of columns) column.decodeRows(batch, width, rows, written)
      written += rows
    }
    return { write, finish: () => ({ rowCount: written, columns: columns.map((column) => column.finish(written)) }) }
  }

  return { columns: specs, spans, width, encode, categorySlots, decoder, toJSON: () => transformerArtifactOf(specs) }
}

/** A stored transformer (`toJSON()`) back, encoding and decoding exactly as the fitted one; or why it is not one. */
export const tableTransformerFromJSON = (artifact: unknown): Result.Result<TableTransformer, TransformerArtifactError> =>
  Result.map(specsFromArtifact(artifact), tableTransformerOf)
