import { type Data, makeData, Utf8 } from "apache-arrow"
import { isMissingToken, trimCell } from "../normalise/cleanText.ts"
import { ColumnBuilder, type Rows } from "./ColumnBuilder.ts"

const encoder = new TextEncoder()

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

  protected appendText(text: string): void {
    // A UTF-16 unit becomes at most three UTF-8 bytes.
    this.ensureRoom(text.length * 3)
    const bytes = this.bytes
    let at = this.byteLength
    let index = 0
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index)
      if (code >= 0x80) break
      bytes[at++] = code
    }
    if (index < text.length) at += encoder.encodeInto(text.slice(index), bytes.subarray(at)).written
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
