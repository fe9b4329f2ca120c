import type { ColumnType } from "@synth/synth"
import type { KeyedBloomFilter } from "../keyedBloom.ts"
import type { FakeKind } from "../roles/ColumnPlan.ts"

/** A faked column's real values, as text (what fake values are shaped after, and must never equal). */
export interface FakeColumnInput {
  readonly name: string
  readonly type: ColumnType
  readonly kind: FakeKind
  readonly values: ReadonlyArray<string | null>
}

export interface FakeSettings {
  readonly seed: number
  /** k: no format, domain or mix held by fewer than k rows is learned. */
  readonly rareThreshold: number
  /** false for dp-ctgan: type defaults only (nothing of the values outside ε), except the real-value filter. */
  readonly learnFromValues: boolean
}

/** How faked columns are planned and drawn (libs/protect/src/fake); passed in so the pipeline can be tested alone. */
export interface Fakers {
  readonly plan: (input: FakeColumnInput, settings: FakeSettings) => { readonly plan: unknown; readonly realValues: KeyedBloomFilter }
  readonly fake: (plan: unknown, rows: number, seed: number, realValues: KeyedBloomFilter) => ReadonlyArray<string | null>
}
