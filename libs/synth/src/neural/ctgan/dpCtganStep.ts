/**
 * One DP-CTGAN training step: a DP-SGD update of the discriminator, then a generator update that learns only through
 * the discriminator (its loss reads no real row).
 *
 * Choices, after SmartNoise's DPCTGAN (snsynth/pytorch/nn/dpctgan.py) and why:
 * - pac = 1: per-sample clipping bounds one row's influence only when a discriminator input is one row; a pack of ten
 *   would tie rows together (and its gradient would be clipped as one sample).
 * - No gradient penalty; SmartNoise's default loss instead, binary cross-entropy on a sigmoid score (real → 1,
 *   generated → 0; the generator targets 1). The penalty couples each real row with a generated one through an
 *   interpolate and needs second-order gradients whose per-sample norms have no closed form; SmartNoise comments it
 *   out and defaults to cross-entropy, and the WGAN loss without the penalty's Lipschitz control is not a critic.
 * - Poisson sampling of the real rows (each row in a batch with probability q = batch_size / rows, found with
 *   geometric gaps): the sampling the RDP accountant analyses. CTGAN's training-by-sampling picks real rows by their
 *   category, which is not that sampling, so under DP each real row is conditioned on its own category in a column
 *   drawn uniformly; generated rows are conditioned on categories drawn by the real frequencies, so both sides carry
 *   the same condition distribution.
 * - Noise once per step: each input's gradient (real and generated alike, as Opacus clips every sample) is clipped to
 *   C, the clipped gradients summed, N(0, σ²C²) added per coordinate, and the sum divided by the expected batch size
 *   (Opacus's "mean" reduction under Poisson sampling). Adding or removing one real row changes the sum by at most C,
 *   so each step is the sampled Gaussian mechanism the accountant counts. (SmartNoise steps twice, real and fake,
 *   and spends budget on both.)
 * - The discriminator loss reported per epoch is its loss on generated rows only: a loss over real rows would be a
 *   statistic of the data released without noise.
 *
 * This is the tfjs step; where ONNX Runtime loads, DP-CTGAN trains on direct/directDpStep.ts, the same step on flat
 * arrays (ctganTrainer.ts chooses).
 */
import * as tf from "@tensorflow/tfjs"
import type { Random } from "../../random.ts"
import { type ConditionDraw, conditionVectors } from "./conditions.ts"
import { dropoutMasks } from "./discriminator.ts"
import { generatorVariables } from "./generator.ts"
import { gaussians } from "./noise.ts"
import { clippedGradientSum } from "./perSampleClipping.ts"
import type { PrivacyPlan } from "./privacyPlan.ts"
import { conditionTensor, encodedRows, generatedRows, generatorStep, type StepLosses, type TrainingContext, withConditions } from "./trainingContext.ts"

/** Each of `rows` rows independently with probability `rate`: the gaps between picked rows are geometric. */
export const poissonSample = (rows: number, rate: number, random: Random): Int32Array => {
  if (rate >= 1) return Int32Array.from({ length: rows }, (_, i) => i)
  const picked: Array<number> = []
  const logMiss = Math.log1p(-rate)
  for (let row = -1; ;) {
    row += 1 + Math.floor(Math.log(1 - random.next()) / logMiss)
    if (row >= rows) return Int32Array.from(picked)
    picked.push(row)
  }
}


/** Each real row conditioned on its own category in a column drawn uniformly (one draw per row, in row order). */
export const ownConditions = (context: TrainingContext, realRows: Int32Array): Float32Array => {
  const { index, random, space } = context
  const conditions = new Float32Array(realRows.length * space.width)
  if (space.width > 0) {
    realRows.forEach((row, i) => {
      const column = random.integer(space.columns.length)
      conditions[i * space.width + space.columns[column]!.conditionOffset + index.slotsOf[column]![row]!] = 1
    })
  }
  return conditions
}

/** The optimiser takes the clipped gradients in discriminatorVariables order, the order clippedGradientSum returns. */
const dpCriticStep = (context: TrainingContext, plan: PrivacyPlan, draw: ConditionDraw): number => {
  const { batchSize, discriminator, random, space, table } = context
  const realRows = poissonSample(table.rowCount, plan.sampleRate, random)
  const real = realRows.length
  const realConditions = ownConditions(context, realRows)
  const fakeConditions = conditionVectors(space, draw.draw(batchSize, random))
  return tf.tidy(() => {
    const fake = tf.tidy(() => generatedRows(context, conditionTensor(context, fakeConditions, batchSize), batchSize).rows)
    const rows = real === 0 ? fake : tf.concat([withConditions(encodedRows(context, realRows), conditionTensor(context, realConditions, real)), fake], 0)
    const signs = tf.tensor2d(new Float32Array(real + batchSize).fill(-1, 0, real).fill(1, real), [real + batchSize, 1])
    const masks = dropoutMasks(discriminator, real + batchSize, random)
    const { gradients, losses } = clippedGradientSum(discriminator, rows, signs, masks, plan.maxGradNorm)
    const deviation = plan.noiseMultiplier * plan.maxGradNorm
    context.discriminatorOptimizer.step(
      gradients.map((gradient) => tf.div(tf.add(gradient, tf.tensor(gaussians(gradient.size, deviation, random), gradient.shape)), batchSize))
    )
    return tf.mean(tf.slice(losses, [real, 0], [batchSize, 1])).dataSync()[0]!
  })
}

/** The step function of a DP-CTGAN training; `draw` draws conditions by the real categories' frequencies. */
export const dpCtganStep = (context: TrainingContext, plan: PrivacyPlan, draw: ConditionDraw): (() => StepLosses) => {
  const generatorVariableList = generatorVariables(context.generator)
  return () => {
    const discriminator = dpCriticStep(context, plan, draw)
    const generator = generatorStep(context, draw, (scores) => tf.mean<tf.Scalar>(tf.softplus(tf.neg(scores))), generatorVariableList)
    return { generator, discriminator }
  }
}
