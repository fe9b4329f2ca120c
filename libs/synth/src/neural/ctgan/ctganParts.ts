/**
 * What a CTGAN training is built from, the same on every thread that trains it: the condition space and category
 * index of the fitted transformer, the two networks, their Adam optimisers and the output heads. A data-parallel
 * peer builds these from the same table and transformer, then copies the leader's starting weights.
 */
import type { Random } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import type { TableTransformer } from "../../transform/index.ts"
import type { GradientExchange } from "../parallel/gradientExchange.ts"
import { syncedOptimizer } from "../parallel/syncedOptimizer.ts"
import { type Adam, makeAdam } from "../tf/adam.ts"
import { makeOutputHeads, type OutputHeads } from "./activation.ts"
import { type CategoryIndex, categoryIndexOf, type ConditionSpace, conditionSpaceOf } from "./conditions.ts"
import { type Discriminator, discriminatorVariables, disposeDiscriminator, makeDiscriminator } from "./discriminator.ts"
import { disposeGenerator, type Generator, generatorVariables, makeGenerator } from "./generator.ts"
import { CTGAN_DEFAULTS, type Settings } from "./options.ts"
import type { TrainingContext } from "./trainingContext.ts"

export interface CtganParts {
  readonly space: ConditionSpace
  readonly index: CategoryIndex
  readonly generator: Generator
  readonly discriminator: Discriminator
  readonly generatorOptimizer: Adam
  readonly discriminatorOptimizer: Adam
  readonly heads: OutputHeads
}

export const ADAM = {
  learningRate: CTGAN_DEFAULTS.learningRate,
  beta1: CTGAN_DEFAULTS.beta1,
  beta2: CTGAN_DEFAULTS.beta2,
  weightDecay: CTGAN_DEFAULTS.weightDecay
} as const

export const makeCtganParts = (table: SynthTable, transformer: TableTransformer, settings: Settings, random: Random): CtganParts => {
  const space = conditionSpaceOf(transformer)
  const index = categoryIndexOf(transformer, table, space)
  const generator = makeGenerator(settings.embeddingDim + space.width, settings.generatorDims, transformer.width, random.fork())
  const discriminator = makeDiscriminator(transformer.width + space.width, settings.discriminatorDims, settings.pac, random.fork())
  return {
    space,
    index,
    generator,
    discriminator,
    generatorOptimizer: makeAdam(generatorVariables(generator), ADAM),
    discriminatorOptimizer: makeAdam(discriminatorVariables(discriminator), ADAM),
    heads: makeOutputHeads(transformer.spans, transformer.width, space)
  }
}

/** Frees everything but the generator, which the trained model keeps (pass `keepGenerator: false` to free it too). */
export const disposeCtganParts = (parts: CtganParts, keepGenerator: boolean): void => {
  disposeDiscriminator(parts.discriminator)
  parts.generatorOptimizer.dispose()
  parts.discriminatorOptimizer.dispose()
  parts.heads.dispose()
  if (!keepGenerator) disposeGenerator(parts.generator)
}

/**
 * What one thread's steps work on: `batchRows` of each batch (all of it alone, its share in a data-parallel training)
 * and, with an exchange, optimisers that average each step's gradients with the other thread's first.
 */
export const trainingContextOf = (
  table: SynthTable,
  transformer: TableTransformer,
  parts: CtganParts,
  settings: Settings,
  share: { readonly batchRows: number; readonly exchange: GradientExchange | null },
  random: Random
): TrainingContext => {
  const { exchange } = share
  const synced = (optimizer: Adam, variables: ReturnType<typeof generatorVariables>) =>
    exchange === null ? optimizer : syncedOptimizer(optimizer, exchange, variables)
  return {
    table,
    transformer,
    space: parts.space,
    index: parts.index,
    generator: parts.generator,
    discriminator: parts.discriminator,
    generatorOptimizer: synced(parts.generatorOptimizer, generatorVariables(parts.generator)),
    discriminatorOptimizer: synced(parts.discriminatorOptimizer, discriminatorVariables(parts.discriminator)),
    heads: parts.heads,
    batchSize: share.batchRows,
    embeddingDim: settings.embeddingDim,
    random
  }
}
