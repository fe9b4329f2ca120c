import type { Rows } from "../arrow/ColumnBuilder.ts"
import { isMissingToken, isPlainField, trimCell } from "../normalise/cleanText.ts"
import { type FieldBatch, fieldText, isEscaped } from "../records/FieldBatch.ts"
import type { ColumnShape } from "../records/json/FlatColumns.ts"
import type { Cell, RecordStream } from "../records/RecordStream.ts"
import { TabularError } from "../TabularError.ts"
import { ColumnEvidence } from "./ColumnEvidence.ts"
import type { ColumnPlan } from "./ColumnPlan.ts"
import type { IngestSummary } from "./IngestSummary.ts"
import { resolveColumn } from "./resolveColumn.ts"

export interface InferredTable {
  readonly summary: IngestSummary
  readonly plans: ReadonlyArray<ColumnPlan>
  /** JSON only: where each column came from (nested keys, arrays), for the table's field metadata. */
  readonly shapes: ReadonlyArray<ColumnShape>
}

interface Cleaning {
  trimmedCells: number
  missingTokens: number
}

/** Pass 1: reads every record once, keeping per-column evidence only, and resolves each column's type. */
export const inferTable = async (records: RecordStream, signal?: AbortSignal): Promise<InferredTable> => {
  const evidence: Array<ColumnEvidence> = []
  const cleaning: Cleaning = { trimmedCells: 0, missingTokens: 0 }
  let rowCount = 0
  // Column by column: a column's cells take the same branches (the same candidates left, the same forms), which
  // V8 and the branch predictor reward; row by row the ten columns of the mixed CSV interleave them. Pass 1 on
  // the 100 MB mixed CSV: ~8 % faster (alternating runs, CPU-time medians, Node 20).
  if (records.fieldBatches !== undefined) {
    for await (const batch of records.fieldBatches) {
      signal?.throwIfAborted()
      while (evidence.length < batch.columnCount) evidence.push(new ColumnEvidence())
      rowCount += batch.rowCount
      for (let column = 0; column < batch.columnCount; column++) {
        observeFields(batch, column, evidence[column]!, cleaning)
      }
    }
  } else {
    for await (const batch of records.batches) {
      signal?.throwIfAborted()
      // JSON columns appear while the file is read.
      while (evidence.length < records.columns.length) evidence.push(new ColumnEvidence())
      rowCount += batch.length
      for (let column = 0; column < evidence.length; column++) observeCells(batch, column, evidence[column]!, cleaning)
    }
  }
  const { missingTokens, trimmedCells } = cleaning
  if (rowCount === 0) throw new TabularError({ reason: "no_data_rows", message: "the file has a header but no data rows" })
  while (evidence.length < records.columns.length) evidence.push(new ColumnEvidence())
  const plans = records.columns.map((name, column) => resolveColumn(name, rowCount, evidence[column]!))
  return {
    plans,
    shapes: records.shapes ?? [],
    summary: {
      format: records.format,
      encoding: records.encoding,
      delimiter: records.delimiter,
      rowCount,
      columns: plans.map((plan) => plan.schema),
      cleaning: {
        trimmedCells,
        missingTokens,
        standardisedValues: plans.reduce((total, plan) => total + plan.standardisedValues, 0)
      }
    }
  }
}

const observeCells = (rows: Rows, column: number, evidence: ColumnEvidence, cleaning: Cleaning): void => {
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!
    if (column < row.length) observeCell(row[column], evidence, cleaning)
  }
}

/**
 * `observeCells` for CSV fields in place (see FieldBatch): a field that needs no cleaning is read where it lies,
 * any other as a string. On the 100 MB mixed CSV this spared pass 1 the strings and arrays of ~9 M cells.
 */
const observeFields = (batch: FieldBatch, column: number, evidence: ColumnEvidence, cleaning: Cleaning): void => {
  const { bounds, columnCount, text } = batch
  for (let row = 0; row < batch.rowCount; row++) {
    const field = 2 * (row * columnCount + column)
    const start = bounds[field]!
    const end = bounds[field + 1]!
    if (isPlainField(text, start, end)) evidence.observeField(text, start, end)
    else if (isEscaped(start) && isPlainField(text, ~start, end)) evidence.observeTextWithQuote()
    else observeCell(fieldText(text, start, end), evidence, cleaning)
  }
}

const observeCell = (cell: Cell | undefined, evidence: ColumnEvidence, cleaning: Cleaning): void => {
  if (cell === null || cell === undefined) return
  if (typeof cell === "string") {
    const text = trimCell(cell)
    if (text.length !== cell.length) cleaning.trimmedCells++
    if (isMissingToken(text)) {
      if (text.length > 0) cleaning.missingTokens++
      return
    }
    evidence.observeText(text)
  } else if (typeof cell === "number") evidence.observeNumber(cell)
  else evidence.observeBoolean(cell)
}
