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
 * writes the trained ones back (sampling and the artifact use the tfjs generator). DP-CTGAN's direct step is
 * directDpStep.ts.
 */
import type { GradientExchange } from "../../parallel/gradientExchange.ts"
import { readWeights, writeWeights } from "../../parallel/weights.ts"
import { makeFlatAdam } from "../../tf/flatAdam.ts"
import type { ConditionDraw } from "../conditions.ts"
import { ADAM } from "../ctganParts.ts"
import { drawCriticBatch, drawPackAlphas } from "../ctganStep.ts"
import type { CtganTrainer } from "../ctganTrainer.ts"
import { discriminatorVariables } from "../discriminator.ts"
import { CTGAN_DEFAULTS } from "../options.ts"
import type { TrainingContext } from "../trainingContext.ts"
import { makeDirectCritic } from "./directCritic.ts"
import { makeDirectGeneratorSide } from "./directGeneratorSide.ts"
import type { Products } from "./matrices.ts"

export const directCtganTrainer = (
  context: TrainingContext,
  draw: ConditionDraw,
  products: Products,
  exchange: GradientExchange | null
): Omit<CtganTrainer, "engine"> => {
  const { batchSize, discriminator, random, space, table, transformer } = context
  const pac = discriminator.pac
  const packs = batchSize / pac
  const rowWidth = transformer.width + space.width
  const criticVariableList = discriminatorVariables(discriminator)
  const criticParameters = readWeights(criticVariableList)
  const criticGradients = new Float32Array(criticParameters.length)
  const side = makeDirectGeneratorSide(context, draw, products, exchange)
  const critic = makeDirectCritic({
    inputs: pac * rowWidth,
    hidden: discriminator.hidden.map((layer) => layer.bias.shape[0]),
    maxRows: 3 * packs
  }, criticParameters, criticGradients, products)
  const criticAdam = makeFlatAdam(criticParameters.length, ADAM)
  const encoded = new Float32Array(batchSize * transformer.width)

  const criticStep = (): number => {
    const batch = drawCriticBatch(context, draw)
    side.generate(batch.fakeConditions)
    transformer.encode(table, batch.realRows, random, encoded)
    side.placeRows(critic, 0, batchSize, encoded, batch.realConditions)
    side.placeRows(critic, batchSize, batchSize, side.activated, batch.fakeConditions)
    for (let pass = 0; pass < 3; pass++) side.drawMasks(critic, pass * packs, packs)
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

  return {
    step: () => {
      const discriminatorLoss = criticStep()
      return { discriminator: discriminatorLoss, generator: side.update(critic, "wasserstein") }
    },
    settle: () => {
      side.settle()
      writeWeights(criticVariableList, criticParameters)
    },
    dispose: side.dispose
  }
}
