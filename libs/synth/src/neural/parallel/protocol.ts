import type { SynthTable } from "../../table.ts"
import type { Settings } from "../ctgan/options.ts"
import type { TvaeSettings } from "../tvae/options.ts"

/** The shared memory of a gradient exchange and the parties' shares of each batch. */
export interface ExchangeSetup {
  readonly memory: SharedArrayBuffer
  readonly floats: number
  readonly weights: readonly [number, number]
}

/**
 * What a CTGAN peer thread trains with: the leader's table and fitted transformer (as its JSON artifact), the
 * settings, its own share of each batch and random seed, the number of steps, the leader's starting weights.
 */
export interface CtganPeerRequest {
  readonly kind: "ctgan"
  readonly table: SynthTable
  readonly transformer: unknown
  readonly settings: Settings
  readonly batchRows: number
  readonly seed: number
  readonly steps: number
  readonly generatorWeights: Float32Array
  readonly discriminatorWeights: Float32Array
  readonly exchange: ExchangeSetup
}

/**
 * What a TVAE peer thread trains with: the leader's table, transformer and settings, the seed of the shared row
 * order (both threads shuffle alike and take their part of each batch), its own seed, the starting weights.
 */
export interface TvaePeerRequest {
  readonly kind: "tvae"
  readonly table: SynthTable
  readonly transformer: unknown
  readonly settings: TvaeSettings
  readonly shuffleSeed: number
  readonly seed: number
  readonly weights: Float32Array
  readonly exchange: ExchangeSetup
}

export type PeerRequest = CtganPeerRequest | TvaePeerRequest
