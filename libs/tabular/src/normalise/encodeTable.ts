import { makeData, RecordBatch, Struct } from "apache-arrow"
import { builderFor } from "../arrow/builderFor.ts"
import type { ColumnBuilder, Rows } from "../arrow/ColumnBuilder.ts"
import { IpcStreamEncoder } from "../arrow/IpcStreamEncoder.ts"
import { tableSchema } from "../arrow/tableSchema.ts"
import type { InferredTable } from "../infer/inferTable.ts"
import { fieldRows } from "../records/FieldBatch.ts"
import type { RecordStream } from "../records/RecordStream.ts"
import { TabularError } from "../TabularError.ts"

export interface BatchLimits {
  readonly rows: number
  /** String bytes a batch may hold before it is closed early, so that long text cannot make one batch huge. */
  readonly stringBytes: number
}

export const defaultBatchLimits: BatchLimits = { rows: 32_768, stringBytes: 32 * 1024 * 1024 }

/** How often (in rows) the string bytes are added up: often enough to bound a batch, rarely enough to cost nothing. */
const stringCheckEvery = 1024

/**
 * Pass 2: converts every record with the plans of pass 1 and yields Arrow IPC stream bytes, one record batch at a
 * time, so memory holds a single batch whatever the size of the file.
 */
export async function* encodeTable(
  records: RecordStream,
  inferred: InferredTable,
  limits: BatchLimits = defaultBatchLimits
): AsyncGenerator<Uint8Array> {
  const schema = tableSchema(inferred.summary, inferred.plans, inferred.shapes)
  const encoder = new IpcStreamEncoder(schema)
  const builders = inferred.plans.map((plan) => builderFor(plan, limits.rows))
  const structType = new Struct(schema.fields)
  let rowsInBatch = 0
  let rowsSeen = 0
  const closeBatch = (): Uint8Array => {
    const children = builders.map((builder) => builder.finish())
    const data = makeData({ type: structType, length: rowsInBatch, nullCount: 0, children })
    rowsInBatch = 0
    return encoder.encode(new RecordBatch(schema, data))
  }
  const stringBytes = (): number => builders.reduce((total, builder) => total + builder.variableBytes, 0)

  /**
   * Appends rows `0` to `rowCount` of a batch, column by column (see ColumnBuilder), in runs of rows that end
   * wherever the row-by-row rule would close a batch or add up the string bytes, so batches close exactly where
   * they did.
   */
  function* appendInRuns(rowCount: number, append: AppendRun) {
    for (let from = 0; from < rowCount;) {
      const to = Math.min(
        rowCount,
        from + limits.rows - rowsInBatch,
        from + stringCheckEvery - (rowsInBatch % stringCheckEvery)
      )
      for (let column = 0; column < builders.length; column++) append(builders[column]!, column, from, to)
      rowsInBatch += to - from
      rowsSeen += to - from
      from = to
      if (rowsInBatch === limits.rows || (rowsInBatch % stringCheckEvery === 0 && stringBytes() >= limits.stringBytes)) {
        yield closeBatch()
      }
    }
  }
  const appendRows = (rows: Rows) =>
    appendInRuns(rows.length, (builder, column, from, to) => builder.appendRows(rows, column, from, to))

  yield encoder.header()
  if (records.fieldBatches !== undefined) {
    for await (const batch of records.fieldBatches) {
      // A header that changed between the reads: the rows as strings meet the same checks as in `batches`.
      if (batch.columnCount !== builders.length) yield* appendRows(checkedWidth(fieldRows(batch), builders.length))
      else {
        yield* appendInRuns(batch.rowCount, (builder, column, from, to) => builder.appendFields(batch, column, from, to))
      }
    }
  } else {
    for await (const batch of records.batches) yield* appendRows(checkedWidth(batch, builders.length))
  }
  if (rowsSeen !== inferred.summary.rowCount) throw changedBetweenReads()
  if (rowsInBatch > 0) yield closeBatch()
  yield encoder.end()
}

/** Appends rows `from` to `to` of the batch at hand to the builder of column `column`. */
type AppendRun = (builder: ColumnBuilder, column: number, from: number, to: number) => void

/** Rows no wider than the table of pass 1; a wider row means the file changed between the reads. */
const checkedWidth = (rows: Rows, columns: number): Rows => {
  for (const row of rows) if (row.length > columns) throw changedBetweenReads()
  return rows
}

const changedBetweenReads = (): TabularError =>
  new TabularError({
    reason: "unparseable_file",
    message: "the file read differently the second time: it changed while it was being ingested; upload it again"
  })
