import { type RecordBatch, RecordBatchStreamWriter, type Schema } from "apache-arrow"

/** The IPC stream's end-of-stream marker: continuation token, then a zero length. */
const endOfStream = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])

/**
 * Arrow IPC stream bytes, one record batch at a time. apache-arrow's writer hands its bytes out only through an
 * async queue, so each batch goes through a fresh writer (read synchronously) and the schema message that every
 * writer starts with is cut off after the first. No dictionaries are written, so nothing else repeats.
 */
export class IpcStreamEncoder {
  private readonly schemaLength: number
  private readonly schema: Schema

  constructor(schema: Schema) {
    this.schema = schema
    this.schemaLength = this.header().length
  }

  /** The schema message, which opens the stream. */
  header(): Uint8Array {
    return this.writer().toUint8Array(true)
  }

  /** One record batch message (with its body), to follow the header. */
  encode(batch: RecordBatch): Uint8Array {
    const writer = this.writer()
    writer.write(batch)
    return writer.toUint8Array(true).subarray(this.schemaLength)
  }

  end(): Uint8Array {
    return endOfStream
  }

  private writer(): RecordBatchStreamWriter {
    return new RecordBatchStreamWriter().reset(undefined, this.schema)
  }
}
