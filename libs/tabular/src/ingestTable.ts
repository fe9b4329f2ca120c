import { ingestWith } from "./ingestWith.ts"
import { openRecords } from "./records/openRecords.ts"

/** Pass 1 (read + infer) runs in the returned effect; pass 2 (read again + convert + Arrow IPC) runs when `table` is consumed. */
export const ingestTable = ingestWith(openRecords)
