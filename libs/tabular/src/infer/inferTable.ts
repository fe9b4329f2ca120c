import { isMissingToken, trimCell } from "../normalise/cleanText.ts"
import type { RecordStream } from "../records/RecordStream.ts"
import { TabularError } from "../TabularError.ts"
import { ColumnEvidence } from "./ColumnEvidence.ts"
import type { ColumnPlan } from "./ColumnPlan.ts"
import type { IngestSummary } from "./IngestSummary.ts"
import { resolveColumn } from "./resolveColumn.ts"

export interface InferredTable {
  readonly summary: IngestSummary
  readonly plans: ReadonlyArray<ColumnPlan>
}

/** Pass 1: reads every record once, keeping per-column evidence only, and resolves each column's type. */
export const inferTable = async (records: RecordStream, signal?: AbortSignal): Promise<InferredTable> => {
  const evidence: Array<ColumnEvidence> = []
  let rowCount = 0
  let trimmedCells = 0
  let missingTokens = 0
  for await (const batch of records.batches) {
    signal?.throwIfAborted()
    // JSON columns appear while the file is read.
    while (evidence.length < records.columns.length) evidence.push(new ColumnEvidence())
    rowCount += batch.length
    // Column by column: a column's cells take the same branches (the same candidates left, the same forms), which
    // V8 and the branch predictor reward; row by row the ten columns of the mixed CSV interleave them. Pass 1 on
    // the 100 MB mixed CSV: ~8 % faster (alternating runs, CPU-time medians, Node 20).
    for (let column = 0; column < evidence.length; column++) {
      const columnEvidence = evidence[column]!
      for (let index = 0; index < batch.length; index++) {
        const row = batch[index]!
        if (column >= row.length) continue
        const cell = row[column]
        if (cell === null || cell === undefined) continue
        if (typeof cell === "string") {
          const text = trimCell(cell)
          if (text.length !== cell.length) trimmedCells++
          if (isMissingToken(text)) {
            if (text.length > 0) missingTokens++
            continue
          }
          columnEvidence.observeText(text)
        } else if (typeof cell === "number") columnEvidence.observeNumber(cell)
        else columnEvidence.observeBoolean()
      }
    }
  }
  if (rowCount === 0) throw new TabularError({ reason: "no_data_rows", message: "the file has a header but no data rows" })
  while (evidence.length < records.columns.length) evidence.push(new ColumnEvidence())
  const plans = records.columns.map((name, column) => resolveColumn(name, rowCount, evidence[column]!))
  return {
    plans,
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
