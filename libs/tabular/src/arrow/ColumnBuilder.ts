import type { Data, DataType } from "apache-arrow"
import { isMissingToken, trimCell } from "../normalise/cleanText.ts"
import type { FieldBatch } from "../records/FieldBatch.ts"
import type { Cell } from "../records/RecordStream.ts"
import { TabularError } from "../TabularError.ts"

/** Rows of cells as the parsers hand them out; a row shorter than the columns has missing values at the end. */
export type Rows = ReadonlyArray<ReadonlyArray<Cell>>

/**
 * Fills one Arrow column of one record batch straight into typed arrays: per-value Arrow builders cost several times
 * more per cell, and this is the hot loop of pass 2. Cells are cleaned exactly as pass 1 cleaned them; a builder is
 * only ever given cells that pass 1 saw fit its type.
 *
 * Pass 2 fills a batch column by column through `appendRows`, which every builder implements with its own loop (the
 * same few lines in each class, on purpose): one loop in this base class would see all five builder classes, so
 * V8 would make its calls and its reads of `length` and `validity` megamorphic and inline none of the conversions.
 * A loop per class keeps them monomorphic. On the 100 MB mixed CSV of test/bench/ingest.bench.ts (9.1 M cells)
 * pass 2 went from ~62 to ~83 MB/s CPU time (~45 ns less per cell; Node 20, medians, shared 2-core machine). The
 * same holds for `appendFields`, the loop over CSV fields in place.
 */
export abstract class ColumnBuilder {
  protected length = 0
  protected nullCount = 0
  protected validity: Uint8Array
  protected readonly name: string
  protected readonly capacity: number

  constructor(name: string, capacity: number) {
    this.name = name
    this.capacity = capacity
    this.validity = new Uint8Array(Math.ceil(capacity / 8))
  }

  append(cell: Cell | undefined): void {
    if (cell === null || cell === undefined) return this.appendNull()
    if (typeof cell === "string") {
      const text = trimCell(cell)
      if (isMissingToken(text)) return this.appendNull()
      this.appendText(text)
    } else if (typeof cell === "number") this.appendNumber(cell)
    else this.appendBoolean(cell)
    this.validity[this.length >> 3]! |= 1 << (this.length & 7)
    this.length++
  }

  /** Appends column `column` of `rows[from]` to `rows[to - 1]`. */
  abstract appendRows(rows: Rows, column: number, from: number, to: number): void

  /**
   * `appendRows` for CSV rows in place (see FieldBatch): a field that needs no cleaning is converted where it lies
   * in the text, any other is cleaned as a string, as `appendRows` would.
   */
  abstract appendFields(batch: FieldBatch, column: number, from: number, to: number): void

  /** Bytes held beyond the fixed-size arrays (string bodies), for closing a batch early when they grow large. */
  get variableBytes(): number {
    return 0
  }

  /** The column of the batch so far; the builder starts a new batch afterwards. */
  finish(): Data<DataType> {
    const data = this.makeData(this.length, this.nullCount, this.nullCount === 0 ? undefined : this.validity)
    this.length = 0
    this.nullCount = 0
    this.validity = new Uint8Array(Math.ceil(this.capacity / 8))
    this.reset()
    return data
  }

  protected appendNull(): void {
    this.skipValue()
    this.nullCount++
    this.length++
  }

  protected abstract appendText(text: string): void
  protected abstract appendNumber(value: number): void
  protected abstract appendBoolean(value: boolean): void
  /** Leaves the slot at `length` empty (validity bit already clear). */
  protected abstract skipValue(): void
  protected abstract makeData(length: number, nullCount: number, nullBitmap: Uint8Array | undefined): Data<DataType>
  protected abstract reset(): void

  /** Pass 2 met a cell that pass 1 would have ruled out: the bytes differ between the two reads. */
  protected changedBetweenReads(): never {
    throw new TabularError({
      reason: "unparseable_file",
      message: `column "${this.name}" read differently the second time: the file changed while it was being ingested; upload it again`
    })
  }
}
