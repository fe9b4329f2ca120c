/**
 * A small CTGAN training for the tests that compare a direct step with the tfjs one (direct/*Step.unit.spec.ts): the
 * two-mode table, small networks, batches of 100, and a transformer fitted once.
 */
import { fitTableTransformer } from "../../../transform/index.ts"
import { type CtganOptions, settingsOf } from "../options.ts"
import { twoModeTable } from "./twoModeTable.ts"

export const smallTable = twoModeTable(400, 4)

export const smallTransformer = fitTableTransformer(smallTable, { seed: 8 })

/** The settings, with `dp` for DP-CTGAN's (pac 1). */
export const smallSettings = (dp?: CtganOptions["dp"]) =>
  settingsOf(smallTable.rowCount, {
    seed: 3,
    epochs: 1,
    batchSize: 100,
    embeddingDim: 16,
    generatorDims: [32, 24],
    discriminatorDims: [32, 16],
    ...(dp === undefined ? {} : { dp })
  })
