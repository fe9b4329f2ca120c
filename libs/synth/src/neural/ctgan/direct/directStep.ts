/**
 * CTGAN's training step computed directly: the same step as ctganStep.ts (same draws from the seeded generator, in
 * the same order, so a seed gives the same batches), with the networks' parameters in flat arrays and hand-derived
 * gradients: the generator's layers as ONNX Runtime graphs (directGenerator.ts), the critic's products on ONNX Runtime
 * and its element-wise work in loops (directCritic.ts), the heads in loops (directHeads.ts), Adam in one loop
 * (flatAdam.ts).
 *
 * Why not tfjs: measured on diamonds (2026-11-26), a tfjs step ran ~44 matrix products (~24 ms) and ~550 other
 * kernels; the step took ~100 ms, three quarters of it per-operation overhead (engine bookkeeping, the gradient tape,
 * tensor allocation) and elementwise kernels over freshly allocated tensors. SDV's step takes ~60 ms. Here a step is
 * ~20 ONNX Runtime calls and a few passes over preallocated arrays (~57 ms on one thread, docs/neural-generators.md).
 *
 * The tfjs networks stay the model's definition and storage: their weights are read at the start, and `settle`
 * writes the trained ones back (sampling and the artifact use the tfjs generator). DP-CTGAN keeps the tfjs step.
 */
import type { GradientExchange } from "../../parallel/gradientExchange.ts"
import { readWeights, writeWeights } from "../../parallel/weights.ts"
import { makeFlatAdam } from "../../tf/flatAdam.ts"
import { gumbelNoise } from "../activation.ts"
import { type ConditionDraw, conditionVectors } from "../conditions.ts"
import { ADAM } from "../ctganParts.ts"
import { drawCriticBatch, drawPackAlphas } from "../ctganStep.ts"
import { discriminatorVariables } from "../discriminator.ts"
import { generatorVariables } from "../generator.ts"
import { fairCoins, standardNormals } from "../noise.ts"
import { CTGAN_DEFAULTS } from "../options.ts"
import type { CtganTrainer } from "../ctganTrainer.ts"
import type { TrainingContext } from "../trainingContext.ts"
import { makeDirectCritic } from "./directCritic.ts"
import { makeDirectGenerator } from "./directGenerator.ts"
import { makeDirectHeads } from "./directHeads.ts"
import type { Products } from "./matrices.ts"

/** Inverted dropout's kept value for p = 0.5, as discriminator.ts. */
const DROPOUT_KEPT = 2

export const directCtganTrainer = (
  context: TrainingContext,
  draw: ConditionDraw,
  products: Products,
  exchange: GradientExchange | null
): Omit<CtganTrainer, "engine"> => {
  const { batchSize, discriminator, embeddingDim, random, space, table, transformer } = context
  const pac = discriminator.pac
  const packs = batchSize / pac
  const width = transformer.width
  const conditionWidth = space.width
  const rowWidth = width + conditionWidth
  const generatorVariableList = generatorVariables(context.generator)
  const criticVariableList = discriminatorVariables(discriminator)
  const generatorParameters = readWeights(generatorVariableList)
  const criticParameters = readWeights(criticVariableList)
  const generatorGradients = new Float32Array(generatorParameters.length)
  const criticGradients = new Float32Array(criticParameters.length)
  const generator = makeDirectGenerator({
    inputs: embeddingDim + conditionWidth,
    hidden: context.generator.residuals.map((residual) => residual.scale.shape[0]),
    outputs: width,
    maxRows: batchSize
  }, generatorParameters, generatorGradients, products)
  const critic = makeDirectCritic({
    inputs: pac * rowWidth,
    hidden: discriminator.hidden.map((layer) => layer.bias.shape[0]),
    maxRows: 3 * packs
  }, criticParameters, criticGradients, products)
  const heads = makeDirectHeads(transformer.spans, width, space)
  const generatorAdam = makeFlatAdam(generatorParameters.length, ADAM)
  const criticAdam = makeFlatAdam(criticParameters.length, ADAM)
  const activated = new Float32Array(batchSize * width)
  const rawGradient = new Float32Array(batchSize * width)
  const inputGradient = new Float32Array(batchSize * rowWidth)
  const encoded = new Float32Array(batchSize * width)

  /** The generator's activated rows for these conditional vectors (noise, then gumbel noise, drawn here). */
  const generate = (conditions: Float32Array) => {
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

  /** Critic input rows first … first + batchSize − 1: [encoded row, conditional vector]. */
  const placeRows = (first: number, rows: Float32Array, conditions: Float32Array) => {
    const input = critic.input
    for (let row = 0; row < batchSize; row++) {
      const to = (first + row) * rowWidth
      input.set(rows.subarray(row * width, (row + 1) * width), to)
      input.set(conditions.subarray(row * conditionWidth, (row + 1) * conditionWidth), to + width)
    }
  }

  /** Dropout masks for `passes` passes, drawn pass by pass and layer by layer as discriminator.ts draws them. */
  const drawMasks = (passes: number) => {
    for (let pass = 0; pass < passes; pass++) {
      for (const mask of critic.masks) {
        const size = mask.length / (3 * packs)
        mask.set(fairCoins(packs * size, DROPOUT_KEPT, random), pass * packs * size)
      }
    }
  }

  const criticStep = (): number => {
    const batch = drawCriticBatch(context, draw)
    generate(batch.fakeConditions)
    transformer.encode(table, batch.realRows, random, encoded)
    placeRows(0, encoded, batch.realConditions)
    placeRows(batchSize, activated, batch.fakeConditions)
    drawMasks(3)
    const alphas = drawPackAlphas(packs, random)
    const input = critic.input
    const packWidth = pac * rowWidth
    for (let pack = 0; pack < packs; pack++) {
      const alpha = alphas[pack]!
      const beta = Math.fround(1 - alpha)
      const real = pack * packWidth
      const fake = (packs + pack) * packWidth
      const interpolate = (2 * packs + pack) * packWidth
      for (let i = 0; i < packWidth; i++) input[interpolate + i] = alpha * input[real + i]! + beta * input[fake + i]!
    }
    const { wasserstein } = critic.criticGradients(packs, CTGAN_DEFAULTS.gradientPenalty)
    exchange?.average(criticGradients)
    criticAdam.step(criticParameters, criticGradients)
    return wasserstein
  }

  const generatorStep = (): number => {
    const drawn = draw.draw(batchSize, random)
    const conditions = conditionVectors(space, drawn)
    generate(conditions)
    placeRows(0, activated, conditions)
    drawMasks(1)
    const adversarial = critic.generatorLossGradient(packs, inputGradient)
    heads.backward(activated, inputGradient, rowWidth, batchSize, rawGradient)
    const conditional = heads.conditionLoss(generator.raw, drawn, rawGradient)
    generator.backward(batchSize, rawGradient)
    exchange?.average(generatorGradients)
    generatorAdam.step(generatorParameters, generatorGradients)
    return adversarial + conditional
  }

  return {
    step: () => {
      const discriminatorLoss = criticStep()
      return { discriminator: discriminatorLoss, generator: generatorStep() }
    },
    settle: () => {
      writeWeights(generatorVariableList, generatorParameters)
      writeWeights(criticVariableList, criticParameters)
    },
    dispose: generator.dispose
  }
}
