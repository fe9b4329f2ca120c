import { TabularError } from "../../TabularError.ts"
import { validateColumnNames } from "../columnNames.ts"
import { type FieldBatch, fieldRows, fieldText } from "../FieldBatch.ts"
import { MAX_RECORD_CHARS, type RecordParser } from "../RecordParser.ts"
import type { CsvDelimiter } from "./sniffDelimiter.ts"

const QUOTE = 0x22
const LF = 0x0a
const CR = 0x0d

/**
 * RFC 4180 CSV with a header row, fed text in pieces of any size. Hand-written rather than udsv 0.7.3: fed in
 * chunks, udsv joins a short row with the next one ("4,5\n6,7,8,9" under a 3-column header became
 * ["4", "5\n6", "7,8,9"]), drops an unterminated quoted field silently and knows no line numbers, so ragged rows and
 * broken quoting could not be reported. Speed comes from `indexOf` (vectorised in V8) for the next delimiter, line
 * feed and quote, remembered across fields so that no text is scanned twice.
 *
 * A record cut off by the end of a piece waits (from its start) for more text; it is parsed again only once the text
 * waiting has doubled, so a record spanning many pieces costs linear time.
 *
 * Rows are kept as field bounds in the text of the parse that read them (FieldBatch): pass 2 converts them from
 * there, and `takeRows` makes strings of them for everything else.
 */
export class CsvParser implements RecordParser {
  #columns: ReadonlyArray<string> = []
  /** Rows parsed and not yet taken, one batch per parse that completed any. */
  #batches: Array<FieldBatch> = []
  #pendingRows = 0
  /** Field bounds (see FieldBatch.bounds) of the rows the parse in progress accepted so far: `#boundsLength` of them. */
  #bounds: Int32Array = new Int32Array(initialBounds)
  #boundsLength = 0
  /**
   * Bounds arrays of batches already read, for the next parses: a fresh one per parse (one per 64 KiB piece) cost
   * ~3 % of both passes in zeroed allocations and the garbage collections that their external memory set off.
   */
  #spareBounds: Array<Int32Array> = []
  #pending = ""
  /** Length of #pending at the last parse that left it unfinished; parse again once as much text is added. */
  #stalledAt = 0
  /** The physical line (1-based) on which #pending starts. */
  #line = 1
  /**
   * Blank lines after the header of a one-column file, not yet rows. Elsewhere a blank line is skipped, but with one
   * column it is how a missing value is written (a row of one empty field), so it becomes a row, except at the end
   * of the file (where editors leave blank lines): they wait here until a row follows, and are dropped at the end.
   */
  #blankLinesWaiting = 0
  readonly #delimiter: string

  constructor(delimiter: CsvDelimiter) {
    this.#delimiter = delimiter
  }

  get columns(): ReadonlyArray<string> {
    return this.#columns
  }

  get started(): boolean {
    return this.#columns.length > 0
  }

  get pendingRows(): number {
    return this.#pendingRows
  }

  takeRows(): Array<Array<string>> {
    const rows: Array<Array<string>> = []
    for (const batch of this.takeFieldBatches()) {
      fieldRows(batch, rows)
      this.recycle(batch)
    }
    return rows
  }

  /**
   * The rows waiting, as field bounds: the same rows `takeRows` would have made strings of. Hand each batch back
   * through `recycle` once it is read.
   */
  takeFieldBatches(): Array<FieldBatch> {
    const batches = this.#batches
    this.#batches = []
    this.#pendingRows = 0
    return batches
  }

  /** A batch taken and read: its bounds array will hold those of a later parse, so the batch is no longer valid. */
  recycle(batch: FieldBatch): void {
    if (this.#spareBounds.length < maxSpareBounds) this.#spareBounds.push(new Int32Array(batch.bounds.buffer))
  }

  push(text: string): void {
    if (this.#pending.length + text.length < 2 * this.#stalledAt) {
      this.#pending += text
      return
    }
    // One flat string: `+` makes a cons string, which V8 flattens on the first search but then reads through a
    // reference on every `charCodeAt` (~2× slower), and the parse and pass 2 read the text char by char.
    this.#pending = [this.#pending, text].join("")
    this.#parse(false)
  }

  end(): void {
    this.#parse(true)
    if (!this.started) {
      throw new TabularError({ reason: "empty_file", message: "The file is empty: it has no header row." })
    }
  }

  #parse(final: boolean): void {
    const text = this.#pending
    const length = text.length
    const delimiter = this.#delimiter
    const delimiterCode = delimiter.charCodeAt(0)
    let pos = 0
    let line = this.#line
    let nextLineFeed = -1
    let nextDelimiter = -1
    records: while (pos < length) {
      const recordStart = pos
      const recordLine = line
      // The record's fields go after the rows accepted so far, and count only once #accept takes the record.
      const recordBounds = this.#boundsLength
      let written = recordBounds
      for (;;) {
        if (text.charCodeAt(pos) === QUOTE) {
          let escaped = false
          let from = pos + 1
          let closing: number
          for (;;) {
            closing = text.indexOf("\"", from)
            if (closing === -1 || (closing + 1 === length && !final)) {
              if (final) throw unterminatedQuote(recordLine)
              pos = recordStart
              line = recordLine
              break records
            }
            if (text.charCodeAt(closing + 1) !== QUOTE) break
            escaped = true
            from = closing + 2
          }
          if (nextLineFeed < closing) {
            line += countLineFeeds(text, Math.max(nextLineFeed, pos), closing)
            nextLineFeed = -1
          }
          written = this.#addField(written, escaped ? ~(pos + 1) : pos + 1, closing)
          pos = closing + 1
          const after = text.charCodeAt(pos)
          if (after === delimiterCode) {
            pos++
            continue
          }
          if (after === LF) {
            pos++
            break
          }
          if (after === CR && pos + 1 < length) {
            if (text.charCodeAt(pos + 1) !== LF) throw textAfterQuote(recordLine)
            pos += 2
            break
          }
          if (pos >= length || after === CR) {
            if (!final) {
              pos = recordStart
              line = recordLine
              break records
            }
            pos = length
            break
          }
          throw textAfterQuote(recordLine)
        }
        if (nextLineFeed < pos) nextLineFeed = text.indexOf("\n", pos)
        if (nextLineFeed === -1) {
          if (!final) {
            pos = recordStart
            line = recordLine
            break records
          }
          nextLineFeed = length
        }
        if (nextDelimiter < pos && nextDelimiter !== length) {
          nextDelimiter = text.indexOf(delimiter, pos)
          if (nextDelimiter === -1) nextDelimiter = length
        }
        if (nextDelimiter < nextLineFeed) {
          written = this.#addField(written, pos, nextDelimiter)
          pos = nextDelimiter + 1
          continue
        }
        const fieldEnd = nextLineFeed > pos && text.charCodeAt(nextLineFeed - 1) === CR ? nextLineFeed - 1 : nextLineFeed
        written = this.#addField(written, pos, fieldEnd)
        pos = nextLineFeed + 1
        break
      }
      line++
      this.#accept(text, recordBounds, written, recordLine, text.charCodeAt(recordStart) === QUOTE)
    }
    this.#closeBatch(text)
    this.#line = line
    this.#pending = pos >= length ? "" : text.slice(pos)
    this.#stalledAt = this.#pending.length
    if (this.#stalledAt > MAX_RECORD_CHARS) throw recordTooLong(this.#line)
  }

  /** Writes a field's bounds at `at` of #bounds, growing it when full; returns where the next field goes. */
  #addField(at: number, start: number, end: number): number {
    if (at + 2 > this.#bounds.length) {
      const grown = new Int32Array(this.#bounds.length * 2)
      grown.set(this.#bounds)
      this.#bounds = grown
    }
    this.#bounds[at] = start
    this.#bounds[at + 1] = end
    return at + 2
  }

  /** The record whose fields #bounds holds from `recordBounds` to `written`: a blank line, the header or a row. */
  #accept(text: string, recordBounds: number, written: number, line: number, startsQuoted: boolean): void {
    const fieldCount = (written - recordBounds) / 2
    if (fieldCount === 1 && !startsQuoted && this.#fieldAt(text, recordBounds).trim() === "") {
      if (this.#columns.length === 1) this.#blankLinesWaiting++
      return
    }
    if (this.#columns.length === 0) {
      const names = Array.from({ length: fieldCount }, (_, field) => this.#fieldAt(text, recordBounds + 2 * field))
      this.#columns = validateColumnNames(names)
      return
    }
    if (fieldCount !== this.#columns.length) {
      throw new TabularError({
        reason: "unparseable_file",
        message: `Line ${line} has ${fieldCount} fields but the header has ${this.#columns.length}; ` +
          "every row needs one field per column (check the delimiter and quoting on that line)."
      })
    }
    this.#boundsLength = this.#blankLinesWaiting > 0 ? this.#blankRowsBefore(recordBounds) : written
  }

  #fieldAt(text: string, at: number): string {
    return fieldText(text, this.#bounds[at]!, this.#bounds[at + 1]!)
  }

  /** Puts the blank lines waiting (one column: each a row of one empty field) before the row at `recordBounds`. */
  #blankRowsBefore(recordBounds: number): number {
    const start = this.#bounds[recordBounds]!
    const end = this.#bounds[recordBounds + 1]!
    let at = recordBounds
    for (; this.#blankLinesWaiting > 0; this.#blankLinesWaiting--) at = this.#addField(at, 0, 0)
    return this.#addField(at, start, end)
  }

  /** Hands the rows this parse accepted (in `text`) over to #batches, and starts bounds for the next parse. */
  #closeBatch(text: string): void {
    if (this.#boundsLength === 0) return
    const columnCount = this.#columns.length
    const rowCount = this.#boundsLength / (2 * columnCount)
    this.#batches.push({ text, rowCount, columnCount, bounds: this.#bounds.subarray(0, this.#boundsLength) })
    this.#pendingRows += rowCount
    this.#bounds = this.#spareBounds.pop() ?? new Int32Array(this.#bounds.length)
    this.#boundsLength = 0
  }
}

/** Room for the fields of a few thousand rows of ten columns, at first; it doubles whenever a parse needs more. */
const initialBounds = 1 << 15
/** Batches are read one at a time, so one or two spares are all that is ever used. */
const maxSpareBounds = 4

const countLineFeeds = (text: string, from: number, to: number): number => {
  let count = 0
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) count++
  return count
}

const unterminatedQuote = (line: number) =>
  new TabularError({
    reason: "unparseable_file",
    message: `The quoted field starting on line ${line} is never closed: the file ends inside it. ` +
      "Check for a missing closing quote (\") on that line."
  })

const textAfterQuote = (line: number) =>
  new TabularError({
    reason: "unparseable_file",
    message: `A quoted field on line ${line} has text after its closing quote; a quote inside a quoted field ` +
      "must be doubled (\"\")."
  })

const recordTooLong = (line: number) =>
  new TabularError({
    reason: "unparseable_file",
    message: `The record starting on line ${line} is longer than ${MAX_RECORD_CHARS / 1024 / 1024} MiB characters; ` +
      "a quote is probably never closed."
  })
