import { TabularError } from "../../TabularError.ts"
import { MAX_RECORD_CHARS } from "../RecordParser.ts"
import { JsonObjectsParser, unparseable } from "./JsonObjectsParser.ts"

/** Newline-delimited JSON: one object per line, blank lines skipped; messages name the 1-based line. */
export class NdjsonParser extends JsonObjectsParser {
  #pending = ""
  #line = 1

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
    if (this.objectCount === 0) {
      throw new TabularError({ reason: "empty_file", message: "The file has no JSON objects: it has no rows." })
    }
  }

  #parseLine(source: string): void {
    const line = this.#line++
    if (source.trim() === "") return
    this.addObject(source, {
      invalid: () => `Line ${line} is not valid JSON; NDJSON needs one complete JSON object per line.`,
      notObject: (described) => `Line ${line} is ${described}; expected one JSON object per line.`
    })
  }
}