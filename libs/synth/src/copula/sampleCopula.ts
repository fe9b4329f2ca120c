import { makeRandom } from "../random.ts"
import type { SynthColumn, SynthTable } from "../table.ts"
import type { CategoricalModel, ContinuousModel } from "./columnModels.ts"
import type { CopulaModel } from "./CopulaModel.ts"
import { decodeScore } from "./frequencyIntervals.ts"
import { quantileAt } from "./marginals/quantileTable.ts"
import { roundValue } from "../rounding.ts"

/** Rows generated per block: the latent block stays at k × 64 Ki doubles whatever the row count. */
const BLOCK_ROWS = 65_536

interface ContinuousOutput {
  readonly model: ContinuousModel
  readonly values: Float64Array
  readonly missing: Uint8Array | null
  valueLatent: number
  missingLatent: number
}

interface CategoricalOutput {
  readonly model: CategoricalModel
  readonly codes: Int32Array
  latent: number
}

/**
 * Draws `rows` rows: z = L·e with e standard normal (L the Cholesky factor of the latent correlation), then each
 * continuous value by its tabulated quantile function of z, rounded as learned and clamped to the fitted [min, max];
 * each null flag and category by the frequency interval z falls in. The same seed gives the same table.
 * `onProgress(rowsDone)` is called after each block (for progress reports of long samples).
 */
export const sampleCopula = (
  model: CopulaModel,
  rows: number,
  seed: number,
  onProgress?: (rowsDone: number) => void
): SynthTable => {
  const random = makeRandom(seed)
  const size = model.latents.length
  const continuous: Array<ContinuousOutput> = []
  const categorical: Array<CategoricalOutput> = []
  const outputs = model.columns.map((column) => {
    if (column.kind === "continuous") {
      const output: ContinuousOutput = {
        model: column,
        values: new Float64Array(rows),
        missing: column.missing === null ? null : new Uint8Array(rows),
        valueLatent: -1,
        missingLatent: -1
      }
      continuous.push(output)
      return output
    }
    const output: CategoricalOutput = { model: column, codes: new Int32Array(rows), latent: -1 }
    categorical.push(output)
    return output
  })
  model.latents.forEach((latent, index) => {
    const output = outputs[latent.column]!
    if ("codes" in output) output.latent = index
    else if (latent.role === "value") output.valueLatent = index
    else output.missingLatent = index
  })
  const block = Math.max(1, Math.min(rows, BLOCK_ROWS))
  const scores = new Float64Array(size * block)
  const draws = new Float64Array(size)
  const factor = model.factor
  for (let start = 0; start < rows; start += block) {
    const count = Math.min(block, rows - start)
    for (let r = 0; r < count; r++) {
      for (let i = 0; i < size; i++) draws[i] = random.normal()
      for (let i = 0; i < size; i++) {
        let sum = 0
        for (let j = 0; j <= i; j++) sum += factor[i * size + j]! * draws[j]!
        scores[i * block + r] = sum
      }
    }
    for (const output of continuous) writeContinuous(output, scores, block, start, count)
    for (const output of categorical) {
      const offset = output.latent * block
      const intervals = output.model.intervals
      for (let r = 0; r < count; r++) output.codes[start + r] = intervals.codes[decodeScore(intervals, scores[offset + r]!)]!
    }
    onProgress?.(start + count)
  }
  const columns = outputs.map((output): SynthColumn => {
    if ("codes" in output) {
      const { name, type, categories } = output.model
      return { kind: "categorical", name, type, categories, codes: output.codes }
    }
    const { name, type, sourceFormat } = output.model
    const missing = output.missing !== null && output.missing.includes(1) ? output.missing : null
    return { kind: "continuous", name, type, values: output.values, missing, sourceFormat }
  })
  return { rowCount: rows, columns }
}

const writeContinuous = (output: ContinuousOutput, scores: Float64Array, block: number, start: number, count: number) => {
  const { quantiles, rounding, min, max, missing: missingIntervals } = output.model
  const valueOffset = output.valueLatent * block
  for (let r = 0; r < count; r++) {
    const value = roundValue(rounding, quantileAt(quantiles, scores[valueOffset + r]!))
    output.values[start + r] = Math.min(max, Math.max(min, value))
  }
  if (output.missing === null || missingIntervals === null) return
  const missingOffset = output.missingLatent * block
  for (let r = 0; r < count; r++) {
    if (missingIntervals.codes[decodeScore(missingIntervals, scores[missingOffset + r]!)] === 1) {
      output.missing[start + r] = 1
      output.values[start + r] = 0
    }
  }
}
