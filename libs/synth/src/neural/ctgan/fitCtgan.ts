import { secretRandom } from "../../privacy/secretRandom.ts"
import { makeRandom } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import { fitTableTransformer, type TableTransformer } from "../../transform/index.ts"
import { type GradientExchange, gradientExchange, makeExchangeMemory } from "../parallel/gradientExchange.ts"
import { splitBatch } from "../parallel/splitBatch.ts"
import { bootPeer, confirmReplicas, type Peer, type PeerBoot } from "../parallel/startPeer.ts"
import { parameterCount } from "../parallel/syncedOptimizer.ts"
import { readWeights } from "../parallel/weights.ts"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { conditionDraw, logFrequencies } from "./conditions.ts"
import { disposeCtganParts, makeCtganParts, trainingContextOf } from "./ctganParts.ts"
import { type CtganTrainer, ctganTrainer } from "./ctganTrainer.ts"
import { type CtganModel, ctganModelOf, type EpochRecord } from "./CtganModel.ts"
import { discriminatorVariables } from "./discriminator.ts"
import { type DpPreprocessing, dpPreprocess } from "./dpPreprocessing.ts"
import { generatorVariables } from "./generator.ts"
import { type CtganOptions, type DpOptions, type Settings, settingsOf } from "./options.ts"
import { checkDpOptions, epsilonAfter, planPrivacy, type PrivacyPlan } from "./privacyPlan.ts"
import type { StepLosses } from "./trainingContext.ts"

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

/** DP-CTGAN's preprocessing and plan: everything it knows of the data besides DP-SGD's noisy gradients. */
interface DpTraining {
  readonly options: DpOptions
  readonly preprocessing: DpPreprocessing
  readonly plan: PrivacyPlan
}

/** DP-CTGAN's draws: keyed with the secret when there is one (see DpOptions.noiseSecret). */
const randomOf = (seed: number, dp: DpOptions) => (dp.noiseSecret === undefined ? makeRandom(seed) : secretRandom(dp.noiseSecret, seed))

/** A fixed salt: the preprocessing's draws are a stream of their own, apart from the training's. */
const DP_PREPROCESSING_STREAM = 0x2c9e_41b7

/**
 * Trains CTGAN (Xu et al. 2019, as SDV's ctgan 0.11 with its defaults), or DP-CTGAN when `options.dp` is given, on
 * the table. Rejects with CtganOptionsError, InvalidEpsilon or PrivacyBudgetExceeded before training when the options
 * describe no training; hands the event loop back between epochs.
 *
 * DP-CTGAN reads the data only through its preprocessing's releases (dpPreprocessing.ts) and DP-SGD's clipped,
 * noised gradients of the rows the preprocessing prepared: the transformer, the conditional sampler's weights, δ, the
 * sampling rate and the steps all come from releases.
 */
export const fitCtgan = async (table: SynthTable, options: CtganOptions): Promise<CtganModel> => {
  const settings = settingsOf(table.rowCount, options)
  const dp = options.dp === undefined ? null : await prepareDp(table, settings, options.dp)
  // Data parallelism (options.threads = 2): a peer thread takes part of every batch; DP-CTGAN stays on one thread
  // (its noise is drawn once per batch, after clipping every row's gradient). It boots while this thread prepares.
  const boot = options.threads === 2 && dp === null ? bootPeer() : null
  try {
    return await train(table, options, settings, dp, boot)
  } finally {
    boot?.stop()
  }
}

const prepareDp = async (table: SynthTable, settings: Settings, dp: DpOptions): Promise<DpTraining> => {
  checkDpOptions(dp)
  const preprocessing = dpPreprocess(table, dp.targetEpsilon, randomOf((settings.seed ^ DP_PREPROCESSING_STREAM) >>> 0, dp))
  const plan = await planPrivacy({ rows: preprocessing.rows, epochs: settings.epochs, batchSize: settings.batchSize }, dp)
  return { options: dp, preprocessing, plan }
}

const train = async (
  source: SynthTable,
  options: CtganOptions,
  settings: Settings,
  dp: DpTraining | null,
  boot: PeerBoot | null
): Promise<CtganModel> => {
  await startWasmBackend()
  const random = dp === null ? makeRandom(settings.seed) : randomOf(settings.seed, dp.options)
  const table = dp === null ? source : dp.preprocessing.table
  const transformer: TableTransformer = dp === null ? fitTableTransformer(table, { seed: random.integer(2 ** 31) }) : dp.preprocessing.transformer
  const plan = dp?.plan ?? null
  const parts = makeCtganParts(table, transformer, settings, random)
  // CTGAN draws conditions by the real rows' category counts; DP-CTGAN by the released noisy ones.
  const conditionCounts = dp === null ? parts.index.counts : dp.preprocessing.slotWeights
  const schedule = scheduleOf(table.rowCount, settings.epochs, settings.batchSize, plan)
  const lossHistory: Array<EpochRecord> = []
  let peer: Peer | null = null
  let exchange: GradientExchange | null = null
  let trainer: CtganTrainer | null = null
  let trained = false
  // From here on the networks hold tensors: freed below whatever happens (the peer may fail to start, too).
  try {
    const generatorVariableList = generatorVariables(parts.generator)
    const discriminatorVariableList = discriminatorVariables(parts.discriminator)
    const split = boot === null ? null : splitBatch(settings.batchSize, settings.pac)
    if (boot !== null && split !== null) {
      const floats = Math.max(parameterCount(generatorVariableList), parameterCount(discriminatorVariableList))
      const setup = { memory: makeExchangeMemory(floats), floats, weights: split.weights }
      peer = await boot.start({
        kind: "ctgan",
        table,
        transformer: transformer.toJSON(),
        settings,
        batchRows: split.peerRows,
        seed: random.integer(2 ** 31),
        steps: schedule.steps,
        generatorWeights: readWeights(generatorVariableList),
        discriminatorWeights: readWeights(discriminatorVariableList),
        exchange: setup
      })
      exchange = gradientExchange({ ...setup, party: 0 })
    }
    const context = trainingContextOf(table, transformer, parts, settings, {
      batchRows: split?.leaderRows ?? settings.batchSize,
      exchange
    }, random.fork())
    // CTGAN's training-by-sampling draws by log frequencies; DP-CTGAN's generated rows by the released frequencies.
    const draw = conditionDraw(plan === null ? logFrequencies(conditionCounts) : conditionCounts)
    trainer = ctganTrainer(context, draw, exchange, plan)
    let done = 0
    for (const [epoch, end] of schedule.epochEnds.entries()) {
      const losses: Array<StepLosses> = []
      for (; done < end; done++) {
        losses.push(trainer.step())
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
    trainer.settle()
    if (peer !== null) await confirmReplicas(peer, readWeights(generatorVariableList))
    trained = true
  } finally {
    // The peer has finished its steps when the training has; otherwise it is waiting for this thread's gradients.
    if (!trained) exchange?.fail()
    trainer?.dispose()
    disposeCtganParts(parts, trained)
  }
  return ctganModelOf({
    transformer,
    space: parts.space,
    conditionCounts,
    generator: parts.generator,
    embeddingDim: settings.embeddingDim,
    batchSize: settings.batchSize,
    lossHistory,
    privacy: dp === null ? null : privacyOf(dp, schedule.steps)
  })
}

/** Basic composition of the preprocessing's releases with DP-SGD's steps (see CtganPrivacy). */
const privacyOf = ({ plan, preprocessing }: DpTraining, steps: number) => {
  const training = epsilonAfter(plan, steps)
  return {
    epsilonSpent: plan.budget.preprocessing + training,
    delta: preprocessing.delta + plan.delta.training,
    noiseMultiplier: plan.noiseMultiplier,
    maxGradNorm: plan.maxGradNorm,
    steps,
    targetEpsilon: plan.targetEpsilon,
    stoppedEarly: steps < plan.plannedSteps,
    budget: { preprocessing: plan.budget.preprocessing, training },
    releases: preprocessing.releases
  }
}
