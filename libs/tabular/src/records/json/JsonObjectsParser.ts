import { TabularError } from "../../TabularError.ts"
import type { RecordParser } from "../RecordParser.ts"
import type { Cell } from "../RecordStream.ts"
import { describeJsonValue, isJsonObject } from "./describeJson.ts"
import { type ColumnShape, FlatColumns } from "./FlatColumns.ts"

/** What to tell the client about one record's text that is not a JSON object. */
export interface RecordMessages {
  /** The text is not JSON at all. */
  readonly invalid: () => string
  /** The text is JSON but not an object; gets the value's description ("an array", "the number 3"...). */
  readonly notObject: (described: string) => string
}

/**
 * What the JSON formats share: each record's text parsed as one object and flattened into a row of the columns seen
 * so far (FlatColumns), rows held until taken. A format finds where its records end (`push`, `end`).
 */
export abstract class JsonObjectsParser implements RecordParser {
  readonly #columns = new FlatColumns()
  #rows: Array<Array<Cell>> = []
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

  abstract push(text: string): void
  abstract end(): void

  /** The objects read so far. */
  protected get objectCount(): number {
    return this.#objects
  }

  /** Parses one record's text and adds it as a row; throws `unparseable_file` with `messages` when it is no object. */
  protected addObject(source: string, messages: RecordMessages): void {
    let value: unknown
    try {
      value = JSON.parse(source)
    } catch {
      throw unparseable(messages.invalid())
    }
    if (!isJsonObject(value)) throw unparseable(messages.notObject(describeJsonValue(value)))
    this.#objects++
    this.#rows.push(this.#columns.toRow(value))
  }
}

export const unparseable = (message: string) => new TabularError({ reason: "unparseable_file", message })
