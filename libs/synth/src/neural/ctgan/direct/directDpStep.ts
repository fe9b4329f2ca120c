/**
 * DP-CTGAN's training step computed directly: the DP-SGD of dpCtganStep.ts (its reasons are given there) on the
 * direct step's flat networks. Same draws in the same order as the tfjs step (Poisson-sampled real rows, their own
 * conditions, generated rows, encoding, dropout masks, then the Gaussian noise coordinate by coordinate in
 * discriminatorVariables order with Random.normal), same clipping norm C, noise N(0, σ²C²) added once to the sum of
 * the clipped per-sample gradients and the sum divided by the expected batch size; so the accountant's analysis and
 * every ε the plan reports are unchanged. The per-sample clipping costs one pass over each layer's rows beside the
 * products the non-private step runs anyway (directClipping.ts).
 *
 * The critic takes the Poisson batch of real rows and the generated batch at once; the real count varies from step
 * to step, so its buffers grow when a batch outgrows them (rarely: sized for twice the expected batch).
 */
import { readWeights, writeWeights } from "../../parallel/weights.ts"
import { makeFlatAdam } from "../../tf/flatAdam.ts"
import { type ConditionDraw, conditionVectors } from "../conditions.ts"
import { ADAM } from "../ctganParts.ts"
import type { CtganTrainer } from "../ctganTrainer.ts"
import { discriminatorVariables } from "../discriminator.ts"
import { ownConditions, poissonSample } from "../dpCtganStep.ts"
import type { PrivacyPlan } from "../privacyPlan.ts"
import type { TrainingContext } from "../trainingContext.ts"
import { addNoiseAndAverage, clipAndSum } from "./directClipping.ts"
import { type DirectCritic, makeDirectCritic } from "./directCritic.ts"
import { makeDirectGeneratorSide } from "./directGeneratorSide.ts"
import type { Products } from "./matrices.ts"

export const directDpCtganTrainer = (
  context: TrainingContext,
  plan: PrivacyPlan,
  draw: ConditionDraw,
  products: Products
): Omit<CtganTrainer, "engine"> => {
  const { batchSize, discriminator, random, space, table, transformer } = context
  if (discriminator.pac !== 1) throw new RangeError(`DP-CTGAN clips per row: pac must be 1 (got ${discriminator.pac})`)
  const criticVariableList = discriminatorVariables(discriminator)
  const criticParameters = readWeights(criticVariableList)
  const criticGradients = new Float32Array(criticParameters.length)
  // DP-CTGAN trains on one thread (fitCtgan.ts): its noise is drawn once per batch, after every row is clipped.
  const side = makeDirectGeneratorSide(context, draw, products, null)
  const criticAdam = makeFlatAdam(criticParameters.length, ADAM)
  const deviation = plan.noiseMultiplier * plan.maxGradNorm

  let capacity = 0
  let critic: DirectCritic | null = null
  let signs = new Float32Array(0)
  let losses = new Float32Array(0)
  let squaredNorms = new Float64Array(0)
  const criticFor = (rows: number): DirectCritic => {
    if (critic === null || rows > capacity) {
      capacity = Math.max(rows, 2 * batchSize)
      critic = makeDirectCritic({
        inputs: transformer.width + space.width,
        hidden: discriminator.hidden.map((layer) => layer.bias.shape[0]),
        maxRows: capacity
      }, criticParameters, criticGradients, products)
      signs = new Float32Array(capacity)
      losses = new Float32Array(capacity)
      squaredNorms = new Float64Array(capacity)
    }
    return critic
  }

  const criticStep = (): number => {
    const realRows = poissonSample(table.rowCount, plan.sampleRate, random)
    const real = realRows.length
    const realConditions = ownConditions(context, realRows)
    const fakeConditions = conditionVectors(space, draw.draw(batchSize, random))
    side.generate(fakeConditions)
    const rows = real + batchSize
    const current = criticFor(rows)
    if (real > 0) side.placeRows(current, 0, real, transformer.encode(table, realRows, random), realConditions)
    side.placeRows(current, real, batchSize, side.activated, fakeConditions)
    side.drawMasks(current, 0, rows)
    signs.fill(-1, 0, real).fill(1, real, rows)
    const signals = current.crossEntropyPass(rows, signs, losses)
    clipAndSum(signals, rows, plan.maxGradNorm, products.multiply, current.gradientLayers, squaredNorms)
    addNoiseAndAverage(criticGradients, deviation, batchSize, random)
    criticAdam.step(criticParameters, criticGradients)
    let fakeLoss = 0
    for (let row = real; row < rows; row++) fakeLoss += losses[row]!
    return fakeLoss / batchSize
  }

  return {
    step: () => {
      const discriminatorLoss = criticStep()
      return { discriminator: discriminatorLoss, generator: side.update(criticFor(batchSize), "crossEntropy") }
    },
    settle: () => {
      side.settle()
      writeWeights(criticVariableList, criticParameters)
    },
    dispose: side.dispose
  }
}
