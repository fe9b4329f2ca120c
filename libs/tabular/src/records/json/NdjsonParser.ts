import { TabularError } from "../../TabularError.ts"
import { MAX_RECORD_CHARS, type RecordParser } from "../RecordParser.ts"
import type { Cell } from "../RecordStream.ts"
import { describeJsonValue, isJsonObject } from "./describeJson.ts"
import { type ColumnShape, FlatColumns } from "./FlatColumns.ts"

/** Newline-delimited JSON: one object per line, blank lines skipped; messages name the 1-based line. */
export class NdjsonParser implements RecordParser {
  readonly #columns = new FlatColumns()
  #rows: Array<Array<Cell>> = []
  #pending = ""
  #line = 1
  #objects = 0

  get columns(): ReadonlyArray<string> {
    return this.#columns.names
  }

  get shapes(): ReadonlyArray<ColumnShape> {
    return this.#columns.shapes
  }

  get started(): boolean {
    return this.#objects > 0
  }

  get pendingRows(): number {
    return this.#rows.length
  }

  takeRows(): Array<Array<Cell>> {
    const rows = this.#rows
    this.#rows = []
    return rows
  }

  push(text: string): void {
    const pending = this.#pending === "" ? text : this.#pending + text
    let start = 0
    for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n", start)) {
      this.#parseLine(pending.slice(start, end))
      start = end + 1
    }
    this.#pending = pending.slice(start)
    if (this.#pending.length > MAX_RECORD_CHARS) {
      throw unparseable(`Line ${this.#line} is longer than ${MAX_RECORD_CHARS / 1024 / 1024} MiB characters.`)
    }
  }

  end(): void {
    this.#parseLine(this.#pending)
    this.#pending = ""
    if (this.#objects === 0) {
      throw new TabularError({ reason: "empty_file", message: "The file has no JSON objects: it has no rows." })
    }
  }

  #parseLine(source: string): void {
    const line = this.#line++
    if (source.trim() === "") return
    let value: unknown
    try {
      value = JSON.parse(source)
    } catch {
      throw unparseable(`Line ${line} is not valid JSON; NDJSON needs one complete JSON object per line.`)
    }
    if (!isJsonObject(value)) {
      throw unparseable(`Line ${line} is ${describeJsonValue(value)}; expected one JSON object per line.`)
    }
    this.#objects++
    this.#rows.push(this.#columns.toRow(value))
  }
}

const unparseable = (message: string) => new TabularError({ reason: "unparseable_file", message })
