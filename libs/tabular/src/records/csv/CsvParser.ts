import { TabularError } from "../../TabularError.ts"
import { validateColumnNames } from "../columnNames.ts"
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
 */
export class CsvParser implements RecordParser {
  #columns: ReadonlyArray<string> = []
  #rows: Array<Array<string>> = []
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
    return this.#rows.length
  }

  takeRows(): Array<Array<string>> {
    const rows = this.#rows
    this.#rows = []
    return rows
  }

  push(text: string): void {
    this.#pending = this.#pending === "" ? text : this.#pending + text
    if (this.#pending.length < 2 * this.#stalledAt) return
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
      const fields: Array<string> = []
      for (;;) {
        if (text.charCodeAt(pos) === QUOTE) {
          let value = ""
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
            value += text.slice(from, closing + 1)
            from = closing + 2
          }
          value += text.slice(from, closing)
          if (nextLineFeed < closing) {
            line += countLineFeeds(text, Math.max(nextLineFeed, pos), closing)
            nextLineFeed = -1
          }
          fields.push(value)
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
          fields.push(text.slice(pos, nextDelimiter))
          pos = nextDelimiter + 1
          continue
        }
        const fieldEnd = nextLineFeed > pos && text.charCodeAt(nextLineFeed - 1) === CR ? nextLineFeed - 1 : nextLineFeed
        fields.push(text.slice(pos, fieldEnd))
        pos = nextLineFeed + 1
        break
      }
      line++
      this.#accept(fields, recordLine, text.charCodeAt(recordStart) === QUOTE)
    }
    this.#line = line
    this.#pending = pos >= length ? "" : text.slice(pos)
    this.#stalledAt = this.#pending.length
    if (this.#stalledAt > MAX_RECORD_CHARS) throw recordTooLong(this.#line)
  }

  #accept(fields: Array<string>, line: number, startsQuoted: boolean): void {
    if (fields.length === 1 && !startsQuoted && fields[0]!.trim() === "") {
      if (this.#columns.length === 1) this.#blankLinesWaiting++
      return
    }
    if (this.#columns.length === 0) {
      this.#columns = validateColumnNames(fields)
      return
    }
    for (; this.#blankLinesWaiting > 0; this.#blankLinesWaiting--) this.#rows.push([""])
    if (fields.length !== this.#columns.length) {
      throw new TabularError({
        reason: "unparseable_file",
        message: `Line ${line} has ${fields.length} fields but the header has ${this.#columns.length}; ` +
          "every row needs one field per column (check the delimiter and quoting on that line)."
      })
    }
    this.#rows.push(fields)
  }
}

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
