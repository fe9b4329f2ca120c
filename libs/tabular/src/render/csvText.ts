import type { RecordBatch, Schema } from "apache-arrow"
import { delimiterKey } from "../form/formKeys.ts"
import { cellText, type ValueForm } from "./cellWriters.ts"

const lineBreak = "\r\n"
const delimiters = new Set([",", ";", "\t", "|"])

/**
 * CSV text of a table, RFC 4180: a field is quoted only when it must be (it holds the delimiter, a quote or a line
 * break, or starts or ends with a space that a reader would trim). In the source form the delimiter is the one the
 * file used (a `;` file with decimal commas stays one), else a comma.
 */
export class CsvText {
  readonly delimiter: string
  readonly #needsQuotes: RegExp

  constructor(
    private readonly schema: Schema,
    private readonly values: ValueForm
  ) {
    const sourceDelimiter = schema.metadata.get(delimiterKey)
    this.delimiter = values === "source" && sourceDelimiter !== undefined && delimiters.has(sourceDelimiter)
      ? sourceDelimiter
      : ","
    this.#needsQuotes = new RegExp(`[${this.delimiter === "\t" ? "\\t" : `\\${this.delimiter}`}"\\r\\n]|^\\s|\\s$`)
  }

  field(text: string): string {
    return this.#needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text
  }

  header(): string {
    return this.schema.fields.map((field) => this.field(field.name)).join(this.delimiter) + lineBreak
  }

  batch(batch: RecordBatch): string {
    const cells = batch.schema.fields.map((field, column) => cellText(field, batch.getChildAt(column)!.data[0]!, this.values))
    const lines: Array<string> = new Array(batch.numRows)
    for (let row = 0; row < batch.numRows; row++) {
      let line = ""
      for (let column = 0; column < cells.length; column++) {
        const text = cells[column]!(row)
        line += (column === 0 ? "" : this.delimiter) + (text === undefined ? "" : this.field(text))
      }
      // A row that is one missing value would be a blank line, which readers skip: write it as an empty quoted field.
      lines[row] = line.length === 0 ? '""' : line
    }
    return lines.join(lineBreak) + lineBreak
  }
}
