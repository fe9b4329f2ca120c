import type { SynthTable } from "../../table.ts"
import { type TvaeArtifact, tvaeArtifactOf } from "./artifact.ts"
import { decoderVariables } from "./network.ts"
import type { TvaeParts } from "./parts.ts"
import { sampleTvae } from "./sampleTvae.ts"

/** A trained TVAE: what sampling needs (the decoder and the transformer) and how training went. */
export interface TvaeModel {
  /** `rows` synthetic rows, reproducibly from `seed`; synchronous, a batch at a time. */
  readonly sample: (rows: number, seed: number, onProgress?: (rowsDone: number) => void) => SynthTable
  /**
   * As `sample`, but with categories read as SDV's TVAE reads them, by the decoder's largest output (sampleTvae.ts
   * says why `sample` draws them instead): for comparisons with SDV and with models sampled before the draw.
   */
  readonly sampleByArgmax: (rows: number, seed: number) => SynthTable
  /** The versioned artifact `tvaeFromJSON` reads back. */
  readonly toJSON: () => TvaeArtifact
  /** Mean training loss per epoch (empty for a model loaded from an artifact that stored none). */
  readonly lossHistory: ReadonlyArray<number>
  /** Frees the decoder's weights; the model cannot sample afterwards. */
  readonly dispose: () => void
}

export const tvaeModelOf = (parts: TvaeParts): TvaeModel => ({
  sample: (rows, seed, onProgress) => sampleTvae(parts, rows, seed, onProgress),
  sampleByArgmax: (rows, seed) => sampleTvae(parts, rows, seed, undefined, "argmax"),
  toJSON: () => tvaeArtifactOf(parts),
  lossHistory: parts.lossHistory,
  dispose: () => {
    for (const variable of decoderVariables(parts.decoder)) variable.dispose()
  }
})
