import type { CategoryCondition } from "../../models/trainModel.ts"
import type { Random } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import type { TableTransformer } from "../../transform/index.ts"
import { conditionDraw, type Conditions, type ConditionSpace } from "./conditions.ts"
import { disposeGenerator, type Generator, generatorToJSON } from "./generator.ts"
import { type GeneratorPass, generatorPass } from "./generatorPass.ts"
import { sampleCtgan } from "./sampleCtgan.ts"
import type { EpochLosses } from "./options.ts"
import type { CtganArtifact } from "./artifact.ts"
import type { Release } from "../../privacy/ledger.ts"

export interface EpochRecord extends EpochLosses {
  readonly epoch: number
}

/**
 * What a DP-CTGAN model spent, in all: its preprocessing's releases (the ledger) composed with DP-SGD's guarantee
 * (RDP accountant, Opacus's conversion) by basic composition. `epsilonSpent` = budget.preprocessing + budget.training
 * ≤ targetEpsilon; `delta` = the releases' δ + DP-SGD's δ.
 */
export interface CtganPrivacy {
  readonly epsilonSpent: number
  readonly delta: number
  /**
   * The two parts of epsilonSpent: the preprocessing's share (what its releases spend together, at most) and what
   * DP-SGD spent. null in an artifact stored before the preprocessing was accounted (its ε covered DP-SGD only).
   */
  readonly budget: { readonly preprocessing: number; readonly training: number } | null
  /** Every statistic of the data the model holds, as released (see privacy/ledger.ts); null as budget. */
  readonly releases: ReadonlyArray<Release> | null
  readonly noiseMultiplier: number
  readonly maxGradNorm: number
  /** Noisy discriminator steps taken. */
  readonly steps: number
  readonly targetEpsilon: number
  /** Whether training stopped before its planned steps because the next one would have spent more than the target. */
  readonly stoppedEarly: boolean
}

export interface CtganModel {
  readonly format: "synth.ctgan"
  readonly formatVersion: 1
  /** Rows drawn with a seed (the same seed, the same rows); `onProgress` gets the rows done after each batch. */
  readonly sample: (rows: number, seed: number, onProgress?: (rowsDone: number) => void) => SynthTable
  /** Rows steered towards one of the categories by the conditional vector (TrainedModel.sampleConditioned). */
  readonly sampleConditioned: (
    rows: number,
    seed: number,
    categories: ReadonlyArray<CategoryCondition>,
    onProgress?: (rowsDone: number) => void
  ) => SynthTable
  readonly toJSON: () => CtganArtifact
  readonly lossHistory: ReadonlyArray<EpochRecord>
  /** null for plain CTGAN. */
  readonly privacy: CtganPrivacy | null
  /** Frees the generator's weights and constants; the model cannot sample afterwards. */
  readonly dispose: () => void
}

export interface CtganParts {
  readonly transformer: TableTransformer
  readonly space: ConditionSpace
  /** Per discrete column, how many real rows hold each of its slots (sampling draws conditions by these). */
  readonly conditionCounts: ReadonlyArray<ArrayLike<number>>
  readonly generator: Generator
  readonly embeddingDim: number
  /** Rows per generator pass: the training batch, so batch norm sees batches like those it was trained on. */
  readonly batchSize: number
  readonly lossHistory: ReadonlyArray<EpochRecord>
  readonly privacy: CtganPrivacy | null
}

/**
 * Sampling (sampleCtgan.ts) with conditional vectors drawn from the categories' real frequencies (a discrete column
 * uniformly, then a category by its share; the log-frequency draw is for training only), or fixed to one category.
 * The generator's forward pass is set up at the first sample and kept (its flat weights and ONNX Runtime sessions).
 */
export const ctganModelOf = (parts: CtganParts): CtganModel => {
  const { batchSize, generator } = parts
  const draw = conditionDraw(parts.conditionCounts)
  let pass: GeneratorPass | null = null

  const drawRows = (
    rows: number,
    seed: number,
    conditionsOf: (random: Random) => Conditions,
    onProgress?: (rowsDone: number) => void
  ): SynthTable => {
    pass ??= generatorPass(generator, batchSize)
    return sampleCtgan(parts, pass, rows, seed, conditionsOf, onProgress)
  }

  const sample = (rows: number, seed: number, onProgress?: (rowsDone: number) => void): SynthTable =>
    drawRows(rows, seed, (random) => draw.draw(batchSize, random), onProgress)

  /**
   * As ctgan's sample(condition_column, condition_value): every row's conditional vector names one category, the
   * one of `categories` the real rows hold least often (the most selective of them; the others are left to the
   * caller's check). A category the model does not know (dropped by a protection) steers nothing.
   */
  const sampleConditioned = (
    rows: number,
    seed: number,
    categories: ReadonlyArray<CategoryCondition>,
    onProgress?: (rowsDone: number) => void
  ): SynthTable => {
    const steer = steeringSlot(parts, categories)
    if (steer === null) return sample(rows, seed, onProgress)
    const fixed: Conditions = { columns: new Int32Array(batchSize).fill(steer.column), slots: new Int32Array(batchSize).fill(steer.slot) }
    return drawRows(rows, seed, () => fixed, onProgress)
  }

  const toJSON = (): CtganArtifact => ({
    format: "synth.ctgan",
    version: 1,
    transformer: parts.transformer.toJSON(),
    embeddingDim: parts.embeddingDim,
    batchSize,
    conditionCounts: parts.conditionCounts.map((counts) => Array.from(counts)),
    generator: generatorToJSON(generator),
    lossHistory: parts.lossHistory.map(({ discriminator, epoch, generator }) => ({
      epoch,
      generator: finiteOrNull(generator),
      discriminator: finiteOrNull(discriminator)
    })),
    privacy: parts.privacy === null ? null : privacyJson(parts.privacy)
  })

  return {
    format: "synth.ctgan",
    formatVersion: 1,
    sample,
    sampleConditioned,
    toJSON,
    lossHistory: parts.lossHistory,
    privacy: parts.privacy,
    dispose: () => {
      pass?.dispose()
      pass = null
      disposeGenerator(generator)
    }
  }
}

/** The discrete column and slot of the requested category the real rows hold least often; null when none is known. */
const steeringSlot = (parts: CtganParts, categories: ReadonlyArray<CategoryCondition>): { column: number; slot: number } | null => {
  let best: { column: number; slot: number; count: number } | null = null
  for (const { column: name, label } of categories) {
    const column = parts.space.columns.findIndex((discrete) => parts.transformer.columns[discrete.column]!.name === name)
    const spec = parts.transformer.columns[parts.space.columns[column]?.column ?? -1]
    if (spec?.kind !== "categorical") continue
    const category = spec.categories.indexOf(label)
    const ownSlot = spec.slotCategories.indexOf(category)
    // A category sharing the "other" slot is steered towards that slot: the decoder then draws among those.
    const slot = category < 0 ? -1 : ownSlot >= 0 ? ownSlot : spec.other.categories.includes(category) ? spec.slotCategories.length : -1
    const count = slot < 0 ? 0 : parts.conditionCounts[column]![slot]!
    if (count > 0 && (best === null || count < best.count)) best = { column, slot, count }
  }
  return best === null ? null : { column: best.column, slot: best.slot }
}

/** An artifact of a model trained before the ledger keeps the shape it had (no budget, no releases). */
const privacyJson = ({ budget, releases, ...rest }: CtganPrivacy) => ({
  ...rest,
  ...(budget === null ? {} : { budget }),
  ...(releases === null ? {} : { releases })
})

/** JSON has no NaN: a diverged epoch's loss is stored as null and read back as NaN. */
const finiteOrNull = (value: number) => (Number.isFinite(value) ? value : null)
