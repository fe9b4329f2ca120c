import { type Data, makeData, Utf8 } from "apache-arrow"
import { isMissingToken, isPlainField, trimCell } from "../normalise/cleanText.ts"
import { type FieldBatch, fieldText, isEscaped } from "../records/FieldBatch.ts"
import { ColumnBuilder, type Rows } from "./ColumnBuilder.ts"

const encoder = new TextEncoder()
const QUOTE = 0x22

/** Strings as UTF-8 bytes and 32-bit offsets; ASCII is copied by hand, which beats `encodeInto` on short cells. */
export class Utf8Builder extends ColumnBuilder {
  private offsets: Int32Array
  private bytes: Uint8Array
  private byteLength = 0

  constructor(name: string, capacity: number) {
    super(name, capacity)
    this.offsets = new Int32Array(capacity + 1)
    this.bytes = new Uint8Array(capacity * 16)
  }

  override get variableBytes(): number {
    return this.byteLength
  }

  appendRows(rows: Rows, column: number, from: number, to: number): void {
    const validity = this.validity
    for (let row = from; row < to; row++) {
      const cell = rows[row]![column]
      if (typeof cell !== "string") {
        this.append(cell)
        continue
      }
      const text = trimCell(cell)
      const at = this.length
      if (isMissingToken(text)) {
        this.offsets[at + 1] = this.byteLength
        this.nullCount++
      } else {
        this.appendText(text)
        validity[at >> 3]! |= 1 << (at & 7)
      }
      this.length = at + 1
    }
  }

  appendFields(batch: FieldBatch, column: number, from: number, to: number): void {
    const { bounds, columnCount, text } = batch
    const validity = this.validity
    for (let row = from; row < to; row++) {
      const field = 2 * (row * columnCount + column)
      const start = bounds[field]!
      const end = bounds[field + 1]!
      const escaped = isEscaped(start)
      // An escaped field holds a quote, so it is no missing token, and its value starts and ends as its text does.
      if (!isPlainField(text, escaped ? ~start : start, end)) {
        this.append(fieldText(text, start, end))
        continue
      }
      const at = this.length
      if (escaped) this.appendUnescaped(text, ~start, end)
      else this.appendRange(text, start, end)
      validity[at >> 3]! |= 1 << (at & 7)
      this.length = at + 1
    }
  }

  protected appendText(text: string): void {
    this.appendRange(text, 0, text.length)
  }

  /** `text` from `start` to `end` as the value at `length`. */
  private appendRange(text: string, start: number, end: number): void {
    // A UTF-16 unit becomes at most three UTF-8 bytes.
    this.ensureRoom((end - start) * 3)
    const bytes = this.bytes
    let at = this.byteLength
    let index = start
    for (; index < end; index++) {
      const code = text.charCodeAt(index)
      if (code >= 0x80) break
      bytes[at++] = code
    }
    if (index < end) at += encoder.encodeInto(text.slice(index, end), bytes.subarray(at)).written
    this.byteLength = at
    this.offsets[this.length + 1] = at
  }

  /** `appendRange` of a quoted field's text holding doubled quotes (see FieldBatch): each pair is one quote. */
  private appendUnescaped(text: string, start: number, end: number): void {
    this.ensureRoom((end - start) * 3)
    const bytes = this.bytes
    let at = this.byteLength
    let index = start
    for (; index < end; index++) {
      const code = text.charCodeAt(index)
      if (code >= 0x80) break
      bytes[at++] = code
      if (code === QUOTE) index++
    }
    if (index < end) {
      at += encoder.encodeInto(text.slice(index, end).replaceAll("\"\"", "\""), bytes.subarray(at)).written
    }
    this.byteLength = at
    this.offsets[this.length + 1] = at
  }
  protected appendNumber(value: number): void {
    this.appendText(String(value))
  }
  protected appendBoolean(value: boolean): void {
    this.appendText(value ? "true" : "false")
  }
  protected skipValue(): void {
    this.offsets[this.length + 1] = this.byteLength
  }
  protected makeData(length: number, nullCount: number, nullBitmap: Uint8Array | undefined): Data {
    return makeData({
      type: new Utf8(),
      length,
      nullCount,
      nullBitmap,
      valueOffsets: this.offsets.subarray(0, length + 1),
      data: this.bytes.subarray(0, this.byteLength)
    })
  }
  protected reset(): void {
    this.offsets = new Int32Array(this.capacity + 1)
    this.bytes = new Uint8Array(Math.max(this.bytes.length, 1024))
    this.byteLength = 0
  }

  private ensureRoom(extra: number): void {
    if (this.byteLength + extra <= this.bytes.length) return
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.byteLength + extra))
    grown.set(this.bytes.subarray(0, this.byteLength))
    this.bytes = grown
  }
}
