import { Bool, type Data, DateDay, Float64, Int32, makeData, TimestampMillisecond } from "apache-arrow"
import { booleanValueIn, booleanValueOf } from "../infer/booleanText.ts"
import { daysSinceEpoch, millisecondsPerDay } from "../infer/calendar.ts"
import { emptyDateReading, isoForm, readDateIn } from "../infer/dateText.ts"
import { emptyNumberReading, numberIn, type NumberConvention, numberUnder } from "../infer/numberText.ts"
import { isMissingToken, isPlainField, trimCell } from "../normalise/cleanText.ts"
import { type FieldBatch, fieldText } from "../records/FieldBatch.ts"
import { ColumnBuilder, type Rows } from "./ColumnBuilder.ts"

/** Integers and floats as doubles: exact for every integer pass 1 accepts (within ±(2^53−1)). */
export class Float64Builder extends ColumnBuilder {
  private values: Float64Array
  private readonly reading = emptyNumberReading()
  private readonly convention: NumberConvention

  constructor(name: string, capacity: number, convention: NumberConvention) {
    super(name, capacity)
    this.convention = convention
    this.values = new Float64Array(capacity)
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
      if (isMissingToken(text)) this.nullCount++
      else {
        const value = numberUnder(text, this.convention, this.reading)
        if (Number.isNaN(value)) this.changedBetweenReads()
        this.values[at] = value
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
      if (!isPlainField(text, start, end)) {
        this.append(fieldText(text, start, end))
        continue
      }
      const at = this.length
      const value = numberIn(text, start, end, this.convention, this.reading)
      if (Number.isNaN(value)) this.changedBetweenReads()
      this.values[at] = value
      validity[at >> 3]! |= 1 << (at & 7)
      this.length = at + 1
    }
  }

  protected appendText(text: string): void {
    const value = numberUnder(text, this.convention, this.reading)
    if (Number.isNaN(value)) this.changedBetweenReads()
    this.values[this.length] = value
  }
  protected appendNumber(value: number): void {
    this.values[this.length] = value
  }
  protected appendBoolean(): void {
    this.changedBetweenReads()
  }
  protected skipValue(): void {}
  protected makeData(length: number, nullCount: number, nullBitmap: Uint8Array | undefined): Data {
    return makeData({ type: new Float64(), length, nullCount, nullBitmap, data: this.values.subarray(0, length) })
  }
  protected reset(): void {
    this.values = new Float64Array(this.capacity)
  }
}

/** Integer columns whose every value fits 32 bits: half the bytes of a double. */
export class Int32Builder extends ColumnBuilder {
  private values: Int32Array
  private readonly reading = emptyNumberReading()
  private readonly convention: NumberConvention

  constructor(name: string, capacity: number, convention: NumberConvention) {
    super(name, capacity)
    this.convention = convention
    this.values = new Int32Array(capacity)
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
      if (isMissingToken(text)) this.nullCount++
      else {
        const value = numberUnder(text, this.convention, this.reading)
        if (value !== (value | 0)) this.changedBetweenReads()
        this.values[at] = value
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
      if (!isPlainField(text, start, end)) {
        this.append(fieldText(text, start, end))
        continue
      }
      const at = this.length
      const value = numberIn(text, start, end, this.convention, this.reading)
      if (value !== (value | 0)) this.changedBetweenReads()
      this.values[at] = value
      validity[at >> 3]! |= 1 << (at & 7)
      this.length = at + 1
    }
  }

  protected appendText(text: string): void {
    const value = numberUnder(text, this.convention, this.reading)
    if (value !== (value | 0)) this.changedBetweenReads()
    this.values[this.length] = value
  }
  protected appendNumber(value: number): void {
    this.values[this.length] = value
  }
  protected appendBoolean(): void {
    this.changedBetweenReads()
  }
  protected skipValue(): void {}
  protected makeData(length: number, nullCount: number, nullBitmap: Uint8Array | undefined): Data {
    return makeData({ type: new Int32(), length, nullCount, nullBitmap, data: this.values.subarray(0, length) })
  }
  protected reset(): void {
    this.values = new Int32Array(this.capacity)
  }
}

export class BoolBuilder extends ColumnBuilder {
  private values: Uint8Array

  constructor(name: string, capacity: number) {
    super(name, capacity)
    this.values = new Uint8Array(Math.ceil(capacity / 8))
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
      if (isMissingToken(text)) this.nullCount++
      else {
        const value = booleanValueOf(text)
        if (value === undefined) this.changedBetweenReads()
        if (value) this.values[at >> 3]! |= 1 << (at & 7)
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
      if (!isPlainField(text, start, end)) {
        this.append(fieldText(text, start, end))
        continue
      }
      const at = this.length
      const value = booleanValueIn(text, start, end)
      if (value === undefined) this.changedBetweenReads()
      if (value) this.values[at >> 3]! |= 1 << (at & 7)
      validity[at >> 3]! |= 1 << (at & 7)
      this.length = at + 1
    }
  }

  protected appendText(text: string): void {
    const value = booleanValueOf(text)
    if (value === undefined) this.changedBetweenReads()
    this.appendBoolean(value)
  }
  protected appendNumber(value: number): void {
    if (value !== 0 && value !== 1) this.changedBetweenReads()
    this.appendBoolean(value === 1)
  }
  protected appendBoolean(value: boolean): void {
    if (value) this.values[this.length >> 3]! |= 1 << (this.length & 7)
  }
  protected skipValue(): void {}
  protected makeData(length: number, nullCount: number, nullBitmap: Uint8Array | undefined): Data {
    return makeData({ type: new Bool(), length, nullCount, nullBitmap, data: this.values.subarray(0, Math.ceil(length / 8)) })
  }
  protected reset(): void {
    this.values = new Uint8Array(Math.ceil(this.capacity / 8))
  }
}

/** Dates as days since the epoch; date-times as UTC milliseconds, written as little-endian 64-bit halves to avoid a BigInt per cell. */
export class DateTimeBuilder extends ColumnBuilder {
  private values: Int32Array
  private readonly reading = emptyDateReading()
  private readonly dayFirst: boolean
  private readonly withTime: boolean

  constructor(name: string, capacity: number, dayFirst: boolean, withTime: boolean) {
    super(name, capacity)
    this.dayFirst = dayFirst
    this.withTime = withTime
    this.values = new Int32Array(withTime ? capacity * 2 : capacity)
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
      if (isMissingToken(text)) this.nullCount++
      else {
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
      if (!isPlainField(text, start, end)) {
        this.append(fieldText(text, start, end))
        continue
      }
      const at = this.length
      this.appendDate(text, start, end)
      validity[at >> 3]! |= 1 << (at & 7)
      this.length = at + 1
    }
  }

  protected appendText(text: string): void {
    this.appendDate(text, 0, text.length)
  }

  /** The date in `text` from `start` to `end`, at `length`. */
  private appendDate(text: string, start: number, end: number): void {
    const reading = readDateIn(text, start, end, this.reading)
    if (reading.form === 0) this.changedBetweenReads()
    const monthFirstPart = reading.form === isoForm || !this.dayFirst
    const days = monthFirstPart
      ? daysSinceEpoch(reading.year, reading.first, reading.second)
      : daysSinceEpoch(reading.year, reading.second, reading.first)
    if (!this.withTime) {
      this.values[this.length] = days
      return
    }
    const milliseconds = days * millisecondsPerDay + reading.timeOfDay
    this.values[this.length * 2] = milliseconds >>> 0
    this.values[this.length * 2 + 1] = Math.floor(milliseconds / 4_294_967_296)
  }
  protected appendNumber(): void {
    this.changedBetweenReads()
  }
  protected appendBoolean(): void {
    this.changedBetweenReads()
  }
  protected skipValue(): void {}
  protected makeData(length: number, nullCount: number, nullBitmap: Uint8Array | undefined): Data {
    if (!this.withTime) {
      return makeData({ type: new DateDay(), length, nullCount, nullBitmap, data: this.values.subarray(0, length) })
    }
    const data = new BigInt64Array(this.values.buffer, 0, length)
    return makeData({ type: new TimestampMillisecond("UTC"), length, nullCount, nullBitmap, data })
  }
  protected reset(): void {
    this.values = new Int32Array(this.withTime ? this.capacity * 2 : this.capacity)
  }
}
