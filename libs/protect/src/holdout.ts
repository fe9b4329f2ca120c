import { makeRandom } from "@synth/synth/random"

/**
 * The real rows a generation holds out of training, so that every evaluation can run a membership-inference attack
 * (members: the training rows; non-members: these). A function of the row count, the share and the generator's
 * seed alone, so the evaluation service finds the same rows without reading the model.
 */
export interface HoldoutSettings {
  /** Share of the rows held out, 0 (none) to 0.5. */
  readonly share: number
  /** At most this many rows are held out, whatever the share. */
  readonly maxRows: number
}

export const defaultHoldout: HoldoutSettings = { share: 0.1, maxRows: 10_000 }

/** Below this many rows nothing is held out: every row is needed for training, and an attack on a few says nothing. */
export const minimumRowsForHoldout = 20

/** How many rows a table of `rowCount` rows holds out. */
export const holdoutSize = (rowCount: number, settings: HoldoutSettings): number =>
  rowCount < minimumRowsForHoldout ? 0 : Math.min(settings.maxRows, Math.floor(rowCount * settings.share))

/** A fixed salt, so the holdout draw is independent of every other draw made from the generator's seed. */
const HOLDOUT_STREAM = 0x6f1d_a5e3

/** The held-out row indices, ascending: a uniform sample without replacement (partial Fisher–Yates). */
export const holdoutRows = (rowCount: number, settings: HoldoutSettings, seed: number): Uint32Array => {
  const size = holdoutSize(rowCount, settings)
  const random = makeRandom((seed ^ HOLDOUT_STREAM) >>> 0)
  const chosen = new Map<number, number>()
  const rows = new Uint32Array(size)
  for (let index = 0; index < size; index++) {
    const pick = index + random.integer(rowCount - index)
    rows[index] = chosen.get(pick) ?? pick
    chosen.set(pick, chosen.get(index) ?? index)
  }
  return rows.sort()
}
