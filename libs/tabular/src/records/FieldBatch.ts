/**
 * CSV rows as where their fields lie in the decoded text, rather than a string per field and an array per row.
 * Pass 2 converts numbers, dates and text straight from `text`: the strings and arrays that `batches` hands out
 * (and their garbage collection) were a third of its profile on the 100 MB mixed CSV of test/bench/ingest.bench.ts.
 */
export interface FieldBatch {
  /** The text the fields lie in (a stretch of the file, possibly with a partial record at either end). */
  readonly text: string
  readonly rowCount: number
  readonly columnCount: number
  /**
   * Field `f` (row × columnCount + column) spans `text` from `bounds[2f]` to `bounds[2f + 1]`, quotes excluded. A
   * quoted field holding doubled quotes has its start stored as `~start` (below zero): its value needs unescaping.
   */
  readonly bounds: Int32Array
}

/** Whether a field's stored start marks a quoted field with doubled quotes (see `FieldBatch.bounds`). */
export const isEscaped = (start: number): boolean => start < 0

/** The value of the field from `start` (as stored) to `end`, as a string: what `batches` would have held. */
export const fieldText = (text: string, start: number, end: number): string =>
  isEscaped(start) ? text.slice(~start, end).replaceAll("\"\"", "\"") : text.slice(start, end)

/** The batch as rows of strings, as `RecordStream.batches` serves them, added to `rows`. */
export const fieldRows = (batch: FieldBatch, rows: Array<Array<string>> = []): Array<Array<string>> => {
  const { bounds, columnCount, text } = batch
  for (let row = 0, field = 0; row < batch.rowCount; row++) {
    const cells: Array<string> = []
    for (let column = 0; column < columnCount; column++, field += 2) {
      cells.push(fieldText(text, bounds[field]!, bounds[field + 1]!))
    }
    rows.push(cells)
  }
  return rows
}

