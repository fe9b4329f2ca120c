import { makeRandom } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import { fitTableTransformer } from "../../transform/index.ts"
import { makeAdam } from "../tf/adam.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { makeOutputHeads } from "./activation.ts"
import { categoryIndexOf, conditionDraw, conditionSpaceOf, logFrequencies } from "./conditions.ts"
import { ctganStep } from "./ctganStep.ts"
import { type CtganModel, ctganModelOf, type EpochRecord } from "./CtganModel.ts"
import { discriminatorVariables, disposeDiscriminator, makeDiscriminator } from "./discriminator.ts"
import { dpCtganStep } from "./dpCtganStep.ts"
import { disposeGenerator, generatorVariables, makeGenerator } from "./generator.ts"
import { CTGAN_DEFAULTS, type CtganOptions, settingsOf } from "./options.ts"
import { epsilonAfter, planPrivacy, type PrivacyPlan } from "./privacyPlan.ts"
import type { StepLosses, TrainingContext } from "./trainingContext.ts"

/**
 * The steps of a training and where its epochs end. CTGAN: max(⌊rows / batch⌋, 1) steps per epoch. DP-CTGAN: the
 * planned ⌊epochs / q⌋ steps spread evenly over the epochs, cut at the steps the budget allows.
 */
interface Schedule {
  readonly steps: number
  readonly epochEnds: ReadonlyArray<number>
}

const scheduleOf = (rows: number, epochs: number, batchSize: number, plan: PrivacyPlan | null): Schedule => {
  if (plan === null) {
    const perEpoch = Math.max(Math.floor(rows / batchSize), 1)
    return { steps: perEpoch * epochs, epochEnds: Array.from({ length: epochs }, (_, e) => (e + 1) * perEpoch) }
  }
  const ends = Array.from({ length: epochs }, (_, e) => Math.round(((e + 1) * plan.plannedSteps) / epochs))
  const cut = ends.findIndex((end) => end >= plan.allowedSteps)
  return { steps: plan.allowedSteps, epochEnds: [...ends.slice(0, cut), plan.allowedSteps] }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Trains CTGAN (Xu et al. 2019, as SDV's ctgan 0.11 with its defaults), or DP-CTGAN when `options.dp` is given, on
 * the table. Rejects with CtganOptionsError, InvalidEpsilon or PrivacyBudgetExceeded before training when the options
 * describe no training; hands the event loop back between epochs.
 */
export const fitCtgan = async (table: SynthTable, options: CtganOptions): Promise<CtganModel> => {
  const settings = settingsOf(table.rowCount, options)
  const plan = options.dp === undefined
    ? null
    : await planPrivacy({ rows: table.rowCount, epochs: settings.epochs, batchSize: settings.batchSize }, options.dp)
  await startWasmBackend()
  const random = makeRandom(settings.seed)
  const transformer = fitTableTransformer(table, { seed: random.integer(2 ** 31) })
  const space = conditionSpaceOf(transformer)
  const index = categoryIndexOf(transformer, table, space)
  const generator = makeGenerator(settings.embeddingDim + space.width, settings.generatorDims, transformer.width, random.fork())
  const discriminator = makeDiscriminator(transformer.width + space.width, settings.discriminatorDims, settings.pac, random.fork())
  const adam = { learningRate: CTGAN_DEFAULTS.learningRate, beta1: CTGAN_DEFAULTS.beta1, beta2: CTGAN_DEFAULTS.beta2, weightDecay: CTGAN_DEFAULTS.weightDecay }
  const generatorOptimizer = makeAdam(generatorVariables(generator), adam)
  const discriminatorOptimizer = makeAdam(discriminatorVariables(discriminator), adam)
  const heads = makeOutputHeads(transformer.spans, transformer.width, space)
  const context: TrainingContext = {
    table,
    transformer,
    space,
    index,
    generator,
    discriminator,
    generatorOptimizer,
    discriminatorOptimizer,
    heads,
    batchSize: settings.batchSize,
    embeddingDim: settings.embeddingDim,
    random: random.fork()
  }
  const step = plan === null
    ? ctganStep(context, conditionDraw(logFrequencies(index.counts)))
    : dpCtganStep(context, plan, conditionDraw(index.counts))
  const schedule = scheduleOf(table.rowCount, settings.epochs, settings.batchSize, plan)
  const lossHistory: Array<EpochRecord> = []
  let trained = false
  try {
    let done = 0
    for (const [epoch, end] of schedule.epochEnds.entries()) {
      const losses: Array<StepLosses> = []
      for (; done < end; done++) {
        losses.push(step())
        options.onProgress?.((done + 1) / schedule.steps)
      }
      const record = {
        epoch: epoch + 1,
        generator: losses.reduce((sum, { generator }) => sum + generator, 0) / losses.length,
        discriminator: losses.reduce((sum, { discriminator }) => sum + discriminator, 0) / losses.length
      }
      lossHistory.push(record)
      options.onEpoch?.(record.epoch, { generator: record.generator, discriminator: record.discriminator })
      await nextTurn()
    }
    trained = true
  } finally {
    disposeDiscriminator(discriminator)
    generatorOptimizer.dispose()
    discriminatorOptimizer.dispose()
    heads.dispose()
    if (!trained) disposeGenerator(generator)
  }
  return ctganModelOf({
    transformer,
    space,
    conditionCounts: index.counts,
    generator,
    embeddingDim: settings.embeddingDim,
    batchSize: settings.batchSize,
    lossHistory,
    privacy: plan === null
      ? null
      : {
        epsilonSpent: epsilonAfter(plan, schedule.steps),
        delta: plan.delta,
        noiseMultiplier: plan.noiseMultiplier,
        maxGradNorm: plan.maxGradNorm,
        steps: schedule.steps,
        targetEpsilon: plan.targetEpsilon,
        stoppedEarly: schedule.steps < plan.plannedSteps
      }
  })
}
