import type { TableTransformer } from "../../transform/index.ts"
import type { Decoder } from "./network.ts"

/** What a trained TVAE consists of once training is over: all that sampling and the artifact need. */
export interface TvaeParts {
  readonly decoder: Decoder
  readonly transformer: TableTransformer
  readonly embeddingDim: number
  /** Rows decoded per sampling batch (the training batch size). */
  readonly batchSize: number
  readonly lossHistory: ReadonlyArray<number>
}
