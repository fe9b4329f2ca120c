import type { FakeColumnInput, FakeSettings } from "../fake/planFakeColumn.ts"
import type { KeyedBloomFilter } from "../keyedBloom.ts"

/**
 * How faked columns are planned and drawn: libs/protect/src/fake (defaultFakers), or a stand-in in a test of the
 * pipeline alone. A plan is opaque here: it travels in the stored model and comes back as JSON.
 */
export interface Fakers {
  readonly plan: (input: FakeColumnInput, settings: FakeSettings) => { readonly plan: unknown; readonly realValues: KeyedBloomFilter }
  readonly fake: (plan: unknown, rows: number, seed: number, realValues: KeyedBloomFilter) => ReadonlyArray<string | null>
}
