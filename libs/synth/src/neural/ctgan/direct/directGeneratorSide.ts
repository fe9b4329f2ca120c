/**
 * The generator's half of a direct CTGAN step, shared by CTGAN's (directStep.ts) and DP-CTGAN's (directDpStep.ts):
 * the flat generator with its heads and Adam, drawing generated rows, laying rows out as critic inputs, drawing the
 * critic's dropout masks, and the generator update through the critic. Every draw is made in the tfjs steps' order
 * (trainingContext.ts), so a seed gives the same batches on either engine.
 */
import type { GradientExchange } from "../../parallel/gradientExchange.ts"
import { readWeights, writeWeights } from "../../parallel/weights.ts"
import { makeFlatAdam } from "../../tf/flatAdam.ts"
import { gumbelNoise } from "../activation.ts"
import { type ConditionDraw, conditionVectors } from "../conditions.ts"
import { ADAM } from "../ctganParts.ts"
import { generatorVariables } from "../generator.ts"
import { fillFairCoins, standardNormals } from "../noise.ts"
import type { TrainingContext } from "../trainingContext.ts"
import type { AdversarialLoss, DirectCritic } from "./directCritic.ts"
import { makeDirectGenerator } from "./directGenerator.ts"
import { makeDirectHeads } from "./directHeads.ts"
import type { Products } from "./matrices.ts"

/** Inverted dropout's kept value for p = 0.5, as discriminator.ts. */
const DROPOUT_KEPT = 2

export interface DirectGeneratorSide {
  /** batchSize × encoded width: the activated rows of the last `generate`. */
  readonly activated: Float32Array
  /** The generator's activated rows for these conditional vectors (its noise, then gumbel noise, drawn here). */
  readonly generate: (conditions: Float32Array) => void
  /**
   * Rows first … first + count − 1 of the critic's input, [encoded row, conditional vector] each, before packing: pac
   * consecutive rows make one packed input.
   */
  readonly placeRows: (critic: DirectCritic, first: number, count: number, rows: Float32Array, conditions: Float32Array) => void
  /** Dropout masks for packed inputs first … first + count − 1, layer by layer as discriminator.ts draws them. */
  readonly drawMasks: (critic: DirectCritic, first: number, count: number) => void
  /** One generator update against the critic's current weights; answers the adversarial plus conditional loss. */
  readonly update: (critic: DirectCritic, loss: AdversarialLoss) => number
  /** Writes the trained generator back into the tfjs network. */
  readonly settle: () => void
  readonly dispose: () => void
}

export const makeDirectGeneratorSide = (
  context: TrainingContext,
  draw: ConditionDraw,
  products: Products,
  exchange: GradientExchange | null
): DirectGeneratorSide => {
  const { batchSize, discriminator, embeddingDim, random, space, transformer } = context
  const packs = batchSize / discriminator.pac
  const width = transformer.width
  const conditionWidth = space.width
  const rowWidth = width + conditionWidth
  const maskSizes = discriminator.hidden.map((layer) => layer.bias.shape[0])
  const variables = generatorVariables(context.generator)
  const parameters = readWeights(variables)
  const gradients = new Float32Array(parameters.length)
  const generator = makeDirectGenerator({
    inputs: embeddingDim + conditionWidth,
    hidden: context.generator.residuals.map((residual) => residual.scale.shape[0]),
    outputs: width,
    maxRows: batchSize
  }, parameters, gradients, products)
  const heads = makeDirectHeads(transformer.spans, width, space)
  const adam = makeFlatAdam(parameters.length, ADAM)
  const activated = new Float32Array(batchSize * width)
  const rawGradient = new Float32Array(batchSize * width)
  const inputGradient = new Float32Array(batchSize * rowWidth)

  const generate: DirectGeneratorSide["generate"] = (conditions) => {
    const noise = standardNormals(batchSize * embeddingDim, random)
    const input = generator.input
    const inputWidth = embeddingDim + conditionWidth
    for (let row = 0; row < batchSize; row++) {
      input.set(noise.subarray(row * embeddingDim, (row + 1) * embeddingDim), row * inputWidth)
      input.set(conditions.subarray(row * conditionWidth, (row + 1) * conditionWidth), row * inputWidth + embeddingDim)
    }
    generator.forward(batchSize)
    heads.activate(generator.raw, gumbelNoise(batchSize * width, random), batchSize, activated)
  }

  const placeRows: DirectGeneratorSide["placeRows"] = (critic, first, count, rows, conditions) => {
    const input = critic.input
    for (let row = 0; row < count; row++) {
      const to = (first + row) * rowWidth
      input.set(rows.subarray(row * width, (row + 1) * width), to)
      input.set(conditions.subarray(row * conditionWidth, (row + 1) * conditionWidth), to + width)
    }
  }

  const drawMasks: DirectGeneratorSide["drawMasks"] = (critic, first, count) => {
    critic.masks.forEach((mask, layer) => {
      const size = maskSizes[layer]!
      fillFairCoins(mask, first * size, count * size, DROPOUT_KEPT, random)
    })
  }

  const update: DirectGeneratorSide["update"] = (critic, loss) => {
    const drawn = draw.draw(batchSize, random)
    const conditions = conditionVectors(space, drawn)
    generate(conditions)
    placeRows(critic, 0, batchSize, activated, conditions)
    drawMasks(critic, 0, packs)
    const adversarial = critic.generatorLossGradient(packs, inputGradient, loss)
    heads.backward(activated, inputGradient, rowWidth, batchSize, rawGradient)
    const conditional = heads.conditionLoss(generator.raw, drawn, rawGradient)
    generator.backward(batchSize, rawGradient)
    exchange?.average(gradients)
    adam.step(parameters, gradients)
    return adversarial + conditional
  }

  return {
    activated,
    generate,
    placeRows,
    drawMasks,
    update,
    settle: () => writeWeights(variables, parameters),
    dispose: generator.dispose
  }
}
