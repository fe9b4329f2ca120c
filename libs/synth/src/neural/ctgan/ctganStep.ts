/**
 * One CTGAN training step as ctgan.py's fit loop runs it (discriminator_steps = 1): a WGAN-GP critic update on a
 * batch drawn by training-by-sampling, then a generator update.
 *
 * Training-by-sampling: each row's condition is a discrete column drawn uniformly and one of its categories drawn by
 * log(1 + frequency); the real rows are drawn among those with that category, for a shuffled copy of the conditions
 * (ctgan's `perm`), so real and fake packs hold the same conditions in different orders.
 *
 * The critic's loss is −(mean D(real) − mean D(fake)) + λ · mean over packs of (‖∇ D(interpolate)‖₂ − 1)², with one
 * uniform α per pack (λ = 10): a true second-order gradient, as the penalty's gradient flows back through ∇D.
 */
import * as tf from "@tensorflow/tfjs"
import { type ConditionDraw, conditionVectors, rowMatching } from "./conditions.ts"
import { applyDiscriminator, type Discriminator, discriminatorVariables, dropoutMasks } from "./discriminator.ts"
import { generatorVariables } from "./generator.ts"
import { CTGAN_DEFAULTS } from "./options.ts"
import {
  conditionTensor,
  encodedRows,
  generatedRows,
  generatorStep,
  type StepLosses,
  type TrainingContext,
  withConditions
} from "./trainingContext.ts"

/** A uniform α per pack, drawn in pack order (float32, as the tensor holds it). */
export const drawPackAlphas = (packs: number, random: TrainingContext["random"]): Float32Array => {
  const alphas = new Float32Array(packs)
  for (let pack = 0; pack < packs; pack++) alphas[pack] = random.next()
  return alphas
}

/** The packs' α, repeated for each of the pack's rows: [rows, 1], broadcast over the columns. */
const packAlphas = (context: TrainingContext): tf.Tensor2D => {
  const { batchSize, discriminator, random } = context
  const alphas = new Float32Array(batchSize)
  drawPackAlphas(batchSize / discriminator.pac, random).forEach((alpha, pack) =>
    alphas.fill(alpha, pack * discriminator.pac, (pack + 1) * discriminator.pac)
  )
  return tf.tensor2d(alphas, [batchSize, 1])
}

const gradientPenalty = (discriminator: Discriminator, real: tf.Tensor2D, fake: tf.Tensor2D, alphas: tf.Tensor2D, masks: ReadonlyArray<tf.Tensor2D>) => {
  const interpolates: tf.Tensor2D = tf.add(tf.mul(alphas, real), tf.mul(tf.sub(1, alphas), fake))
  const gradient = tf.grad((input: tf.Tensor) => tf.sum(applyDiscriminator(discriminator, input as tf.Tensor2D, masks).score))(interpolates)
  const packs = real.shape[0] / discriminator.pac
  const norms = tf.sqrt(tf.sum(tf.square(tf.reshape(gradient, [packs, real.shape[1] * discriminator.pac])), 1))
  return tf.mul<tf.Scalar>(tf.mean(tf.square(tf.sub(norms, 1))), CTGAN_DEFAULTS.gradientPenalty)
}

/** Dropout masks for the critic's three passes: real rows, generated rows, interpolates. */
export interface CriticMasks {
  readonly real: ReadonlyArray<tf.Tensor2D>
  readonly fake: ReadonlyArray<tf.Tensor2D>
  readonly penalty: ReadonlyArray<tf.Tensor2D>
}

/**
 * The critic's loss: the Wasserstein estimate −(mean D(real) − mean D(fake)) (what ctgan reports) and, added to it,
 * the gradient penalty with α per pack ([rows, 1], one value repeated over each pack's rows).
 */
export const criticLoss = (
  discriminator: Discriminator,
  real: tf.Tensor2D,
  fake: tf.Tensor2D,
  alphas: tf.Tensor2D,
  masks: CriticMasks
): { readonly wasserstein: tf.Scalar; readonly total: tf.Scalar } => {
  const realScore = tf.mean<tf.Scalar>(applyDiscriminator(discriminator, real, masks.real).score)
  const fakeScore = tf.mean<tf.Scalar>(applyDiscriminator(discriminator, fake, masks.fake).score)
  const wasserstein = tf.sub<tf.Scalar>(fakeScore, realScore)
  return { wasserstein, total: tf.add<tf.Scalar>(wasserstein, gradientPenalty(discriminator, real, fake, alphas, masks.penalty)) }
}

/** A random permutation of 0 … size − 1 (Fisher–Yates). */
const permutation = (size: number, context: TrainingContext): Int32Array => {
  const order = Int32Array.from({ length: size }, (_, i) => i)
  for (let i = size - 1; i > 0; i--) {
    const j = context.random.integer(i + 1)
    const swap = order[i]!
    order[i] = order[j]!
    order[j] = swap
  }
  return order
}

/** A critic step's draws: the conditions (training-by-sampling), then real rows matching a shuffled copy of them. */
export interface CriticBatch {
  readonly realRows: Int32Array
  readonly realConditions: Float32Array
  readonly fakeConditions: Float32Array
}

export const drawCriticBatch = (context: TrainingContext, draw: ConditionDraw): CriticBatch => {
  const { batchSize, index, random, space } = context
  const drawn = draw.draw(batchSize, random)
  const order = permutation(batchSize, context)
  const realRows = new Int32Array(batchSize)
  const realConditions = new Float32Array(batchSize * space.width)
  const fakeConditions = conditionVectors(space, drawn)
  if (space.width === 0) {
    for (let i = 0; i < batchSize; i++) realRows[i] = random.integer(context.table.rowCount)
  } else {
    order.forEach((from, i) => {
      realRows[i] = rowMatching(index, drawn.columns[from]!, drawn.slots[from]!, random)
      realConditions.set(fakeConditions.subarray(from * space.width, (from + 1) * space.width), i * space.width)
    })
  }
  return { realRows, realConditions, fakeConditions }
}

const criticStep = (context: TrainingContext, draw: ConditionDraw, variables: ReadonlyArray<tf.Variable>): number => {
  const { batchSize, discriminator, random } = context
  const { fakeConditions, realConditions, realRows } = drawCriticBatch(context, draw)
  return tf.tidy(() => {
    const fake = tf.tidy(() => generatedRows(context, conditionTensor(context, fakeConditions, batchSize), batchSize).rows)
    const real = withConditions(encodedRows(context, realRows), conditionTensor(context, realConditions, batchSize))
    const packs = batchSize / discriminator.pac
    const [realMasks, fakeMasks, penaltyMasks] = [0, 1, 2].map(() => dropoutMasks(discriminator, packs, random))
    const masks = { real: realMasks!, fake: fakeMasks!, penalty: penaltyMasks! }
    const alphas = packAlphas(context)
    let wasserstein: tf.Scalar | null = null
    const { grads } = tf.variableGrads(() => {
      const loss = criticLoss(discriminator, real, fake, alphas, masks)
      // Kept out of the gradient function's tidy for the epoch's record; released below.
      wasserstein = tf.keep(loss.wasserstein)
      return loss.total
    }, [...variables])
    context.discriminatorOptimizer.step(variables.map((variable) => grads[variable.name]!))
    const loss = (wasserstein as tf.Scalar | null)!
    const value = loss.dataSync()[0]!
    loss.dispose()
    return value
  })
}

/** The step function of a CTGAN training; `draw` draws training-by-sampling's conditions. */
export const ctganStep = (context: TrainingContext, draw: ConditionDraw): (() => StepLosses) => {
  const criticVariables = discriminatorVariables(context.discriminator)
  const generatorVariableList = generatorVariables(context.generator)
  return () => {
    const discriminator = criticStep(context, draw, criticVariables)
    const generator = generatorStep(context, draw, (scores) => tf.neg(tf.mean<tf.Scalar>(scores)), generatorVariableList)
    return { generator, discriminator }
  }
}
