import { TabularError } from "../../TabularError.ts"
import { MAX_RECORD_CHARS } from "../RecordParser.ts"
import { JsonObjectsParser, unparseable } from "./JsonObjectsParser.ts"

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/** Where the scanner is, relative to the top-level array. */
const Place = { BeforeArray: 0, InArray: 1, AfterArray: 2 } as const
type Place = (typeof Place)[keyof typeof Place]

/**
 * A top-level JSON array of objects, read element by element: a scanner finds where each element ends (tracking
 * strings, escapes and nesting depth; strings are skipped with `indexOf`, the bulk of the text) and `JSON.parse`
 * parses that element alone, so memory stays bounded by one element. Faster than the streaming JSON library in
 * node_modules (stream-json builds every value token by token in JavaScript, and needs Node streams).
 * Positions in messages are character offsets from the start of the text.
 */
export class JsonArrayParser extends JsonObjectsParser {
  #text = ""
  /** Characters dropped from the front of #text so far, to report absolute offsets. */
  #dropped = 0
  /** Where scanning resumes in #text; state below describes the text before it. */
  #pos = 0
  #place: Place = Place.BeforeArray
  #depth = 0
  #inString = false
  #elementStart = 0

  push(text: string): void {
    this.#text = this.#text === "" ? text : this.#text + text
    this.#scan()
    const keepFrom = this.#place === Place.InArray ? this.#elementStart : this.#text.length
    this.#text = this.#text.slice(keepFrom)
    this.#dropped += keepFrom
    this.#pos -= keepFrom
    this.#elementStart = 0
    if (this.#text.length > MAX_RECORD_CHARS) {
      throw unparseable(`Element ${this.objectCount + 1} of the JSON array (at character ${this.#dropped}) is ` +
        `longer than ${MAX_RECORD_CHARS / 1024 / 1024} MiB characters; a bracket or quote is probably never closed.`)
    }
  }

  end(): void {
    if (this.#place !== Place.AfterArray) {
      throw unparseable(`The JSON array is not closed: the file ends inside element ${this.objectCount + 1} ` +
        `(at character ${this.#dropped + this.#text.length}). The file may be truncated.`)
    }
    if (this.objectCount === 0) {
      throw new TabularError({ reason: "empty_file", message: "The file is an empty JSON array: it has no rows." })
    }
  }

  #scan(): void {
    const text = this.#text
    const length = text.length
    let pos = this.#pos
    let depth = this.#depth
    while (pos < length) {
      if (this.#inString) {
        const closing = stringEnd(text, pos)
        if (closing === -1) {
          pos = length
          break
        }
        this.#inString = false
        pos = closing + 1
        continue
      }
      const code = text.charCodeAt(pos)
      if (this.#place === Place.InArray) {
        if (code === QUOTE) this.#inString = true
        else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++
        else if (depth > 0 && (code === CLOSE_BRACE || code === CLOSE_BRACKET)) depth--
        else if (depth === 0 && (code === COMMA || code === CLOSE_BRACKET)) {
          this.#element(text.slice(this.#elementStart, pos), code === CLOSE_BRACKET)
          if (code === CLOSE_BRACKET) this.#place = Place.AfterArray
          this.#elementStart = pos + 1
        }
      } else if (!isJsonWhitespace(code)) {
        if (this.#place === Place.AfterArray) {
          throw unparseable(`More text follows the JSON array (at character ${this.#dropped + pos}); the file ` +
            "must hold a single array.")
        }
        if (code !== OPEN_BRACKET) throw unparseable("The file does not start with a JSON array.")
        this.#place = Place.InArray
        this.#elementStart = pos + 1
      }
      pos++
    }
    this.#pos = pos
    this.#depth = depth
  }

  #element(source: string, closesArray: boolean): void {
    const offset = this.#dropped + this.#elementStart
    if (source.trim() === "") {
      if (closesArray && this.objectCount === 0) return
      throw unparseable(`Element ${this.objectCount + 1} of the JSON array (at character ${offset}) is missing ` +
        "(two commas in a row, or a comma before the closing bracket).")
    }
    const element = this.objectCount + 1
    this.addObject(source, {
      invalid: () => `Element ${element} of the JSON array (at character ${offset}) is not valid JSON.`,
      notObject: (described) => `Element ${element} of the JSON array is ${described}; expected an object per row.`
    })
  }
}

/** The closing quote of a string whose text starts at or before `from`, or -1 when it is not in `text` yet. */
const stringEnd = (text: string, from: number): number => {
  for (let quote = text.indexOf("\"", from); quote !== -1; quote = text.indexOf("\"", quote + 1)) {
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++
    if ((backslashes & 1) === 0) return quote
  }
  return -1
}

const isJsonWhitespace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09

