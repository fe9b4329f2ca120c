import * as tf from "@tensorflow/tfjs"
import type { Random } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import type { TableTransformer } from "../../transform/index.ts"
import type { Adam } from "../tf/adam.ts"
import { gumbelNoise, type OutputHeads } from "./activation.ts"
import { type CategoryIndex, type ConditionDraw, type ConditionSpace, conditionVectors } from "./conditions.ts"
import { applyDiscriminator, type Discriminator, dropoutMasks } from "./discriminator.ts"
import { applyGenerator, type Generator } from "./generator.ts"
import { standardNormals } from "./noise.ts"

/** What one training step works on: the data, the two networks and their optimisers, and the seeded generator. */
export interface TrainingContext {
  readonly table: SynthTable
  readonly transformer: TableTransformer
  readonly space: ConditionSpace
  readonly index: CategoryIndex
  readonly generator: Generator
  readonly discriminator: Discriminator
  readonly generatorOptimizer: Adam
  readonly discriminatorOptimizer: Adam
  readonly heads: OutputHeads
  readonly batchSize: number
  readonly embeddingDim: number
  readonly random: Random
}

/** The losses of one step (the discriminator's: CTGAN's without the gradient penalty, DP-CTGAN's on generated rows). */
export interface StepLosses {
  readonly generator: number
  readonly discriminator: number
}

export const standardNormal = (rows: number, columns: number, random: Random): tf.Tensor2D =>
  tf.tensor2d(standardNormals(rows * columns, random), [rows, columns])

/** Rows side by side with their conditional vectors (nothing to append when the table has no categorical column). */
export const withConditions = (rows: tf.Tensor2D, conditions: tf.Tensor2D | null): tf.Tensor2D =>
  conditions === null ? rows : tf.concat([rows, conditions], 1)

export const conditionTensor = (context: TrainingContext, vectors: Float32Array, rows: number): tf.Tensor2D | null =>
  context.space.width === 0 ? null : tf.tensor2d(vectors, [rows, context.space.width])

/** Real rows, encoded (the mode of each value is drawn from its posterior at each draw, as the transformer encodes). */
export const encodedRows = (context: TrainingContext, rows: Int32Array): tf.Tensor2D =>
  tf.tensor2d(context.transformer.encode(context.table, rows, context.random), [rows.length, context.transformer.width])

/**
 * The generator's rows for these conditions: [activated output, conditional vector] as the discriminator sees them,
 * and the raw output (for the conditional loss). Call inside a tidy or a gradient function.
 */
export const generatedRows = (context: TrainingContext, conditions: tf.Tensor2D | null, rows: number) => {
  const noise = standardNormal(rows, context.embeddingDim, context.random)
  const raw = applyGenerator(context.generator, withConditions(noise, conditions))
  const activated = context.heads.activate(raw, gumbelNoise(rows * context.transformer.width, context.random))
  return { raw, rows: withConditions(activated, conditions) }
}

/**
 * One generator update: conditions from `draw`, fake rows through the discriminator, the generator's loss
 * (`adversarial` of the scores) plus the conditional loss; gradients for the generator's variables only.
 */
export const generatorStep = (
  context: TrainingContext,
  draw: ConditionDraw,
  adversarial: (scores: tf.Tensor2D) => tf.Scalar,
  variables: ReadonlyArray<tf.Variable>
): number =>
  tf.tidy(() => {
    const { batchSize, discriminator, random, space } = context
    const drawn = draw.draw(batchSize, random)
    const conditions = conditionTensor(context, conditionVectors(space, drawn), batchSize)
    const { grads, value } = tf.variableGrads(() => {
      const fake = generatedRows(context, conditions, batchSize)
      const masks = dropoutMasks(discriminator, batchSize / discriminator.pac, random)
      const scores = applyDiscriminator(discriminator, fake.rows, masks).score
      const conditional = context.heads.conditionLoss(fake.raw, drawn)
      return tf.add(adversarial(scores), conditional)
    }, [...variables])
    context.generatorOptimizer.step(variables.map((variable) => grads[variable.name]!))
    return value.dataSync()[0]!
  })
