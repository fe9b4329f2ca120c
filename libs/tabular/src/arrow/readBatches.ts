import { type RecordBatch, RecordBatchReader, type Schema } from "apache-arrow"

export interface IpcBatches {
  readonly schema: Schema
  readonly batches: AsyncIterable<RecordBatch>
}

/** Opens an Arrow IPC stream read from `bytes`, batch by batch. */
export const readBatches = async (bytes: AsyncIterable<Uint8Array>): Promise<IpcBatches> => {
  const reader = await RecordBatchReader.from(bytes)
  await reader.open()
  return { schema: reader.schema, batches: reader }
}
