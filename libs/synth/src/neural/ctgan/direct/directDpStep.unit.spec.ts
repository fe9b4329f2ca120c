import * as tf from "@tensorflow/tfjs"
import { beforeAll, describe, expect, it } from "vitest"
import { makeRandom } from "../../../random.ts"
import { readWeights } from "../../parallel/weights.ts"
import { loadNativeGemm } from "../../tf/native/nativeGemm.ts"
import { startWasmBackend } from "../../tf/wasmBackend.ts"
import { conditionDraw } from "../conditions.ts"
import { disposeCtganParts, makeCtganParts, trainingContextOf } from "../ctganParts.ts"
import { applyDiscriminator, discriminatorVariables, dropoutMasks, makeDiscriminator } from "../discriminator.ts"
import { dpCtganStep } from "../dpCtganStep.ts"
import { generatorVariables } from "../generator.ts"
import { gaussians } from "../noise.ts"
import { clippedGradientSum } from "../perSampleClipping.ts"
import type { PrivacyPlan } from "../privacyPlan.ts"
import { smallSettings, smallTable, smallTransformer } from "../testing/smallTraining.ts"
import type { StepLosses } from "../trainingContext.ts"
import { addNoiseAndAverage, clipAndSum } from "./directClipping.ts"
import { makeDirectCritic } from "./directCritic.ts"
import { directDpCtganTrainer } from "./directDpStep.ts"
import { productsOf } from "./matrices.ts"

beforeAll(async () => {
  await startWasmBackend()
})

const products = () => {
  const native = loadNativeGemm()
  if (native._tag !== "Loaded") throw new Error(`ONNX Runtime did not load: ${native.reason}`)
  return productsOf(native.gemm)
}

describe("the direct per-sample clipping", () => {
  it("sums the same clipped gradients as the tfjs closed form, and bounds each row's gradient by C", () => {
    const random = makeRandom(3)
    const width = 9
    const hidden = [16, 8]
    const count = 12
    const discriminator = makeDiscriminator(width, hidden, 1, random)
    const parameters = readWeights(discriminatorVariables(discriminator))
    const gradients = new Float32Array(parameters.length)
    const critic = makeDirectCritic({ inputs: width, hidden, maxRows: count }, parameters, gradients, products())
    const rowValues = Float32Array.from({ length: count * width }, () => 2 * random.normal())
    const signs = Float32Array.from({ length: count }, (_, i) => (i % 3 === 0 ? 1 : -1))
    const masks = dropoutMasks(discriminator, count, random)
    masks.forEach((mask, layer) => critic.masks[layer]!.set(mask.dataSync()))
    const losses = new Float32Array(count)
    const squaredNorms = new Float64Array(count)
    const clipped = (maxGradNorm: number, rows: number) => {
      critic.input.set(rowValues.subarray(0, rows * width))
      clipAndSum(critic.crossEntropyPass(rows, signs, losses), rows, maxGradNorm, products().multiply, critic.gradientLayers, squaredNorms)
      return Float32Array.from(gradients)
    }
    // A clipping norm between the smallest and the largest per-sample norm, so both branches of min(1, C/‖g‖) run.
    clipped(Infinity, count)
    const norms = Array.from(squaredNorms, Math.sqrt).sort((a, b) => a - b)
    const maxGradNorm = norms[count / 2]!
    expect(norms[0]!).toBeLessThan(maxGradNorm)
    expect(norms[count - 1]!).toBeGreaterThan(maxGradNorm * 1.5)

    const direct = clipped(maxGradNorm, count)
    const reference = tf.tidy(() => {
      const rows = tf.tensor2d(rowValues, [count, width])
      const result = clippedGradientSum(discriminator, rows, tf.tensor2d(signs, [count, 1]), masks, maxGradNorm)
      return { gradients: result.gradients.map((gradient) => Array.from(gradient.dataSync())).flat(), losses: result.losses.dataSync() }
    })
    expect(reference.gradients).toHaveLength(direct.length)
    const scale = Math.max(...reference.gradients.map(Math.abs))
    expect(scale).toBeGreaterThan(1e-3)
    direct.forEach((value, k) => expect(Math.abs(value - reference.gradients[k]!)).toBeLessThan(1e-5 * Math.max(1, scale)))
    losses.forEach((value, i) => expect(value).toBeCloseTo(reference.losses[i]!, 5))

    // One row alone: its clipped gradient is the whole sum, of norm min(‖g‖, C).
    const single = clipped(maxGradNorm / 4, 1)
    const singleNorm = Math.hypot(...single)
    expect(singleNorm).toBeCloseTo(Math.min(Math.sqrt(squaredNorms[0]!), maxGradNorm / 4), 4)
    expect(singleNorm).toBeLessThanOrEqual(maxGradNorm / 4)

    // DP-CTGAN's generator loss, mean softplus(−D), and its input gradient, as tfjs differentiates it.
    critic.input.set(rowValues)
    const inputGradient = new Float32Array(count * width)
    const loss = critic.generatorLossGradient(count, inputGradient, "crossEntropy")
    const expected = tf.tidy(() => {
      const lossOf = (input: tf.Tensor) => tf.mean(tf.softplus(tf.neg(applyDiscriminator(discriminator, input as tf.Tensor2D, masks).score)))
      const rows = tf.tensor2d(rowValues, [count, width])
      return { loss: lossOf(rows).dataSync()[0]!, gradient: tf.grad(lossOf)(rows).dataSync() }
    })
    expect(loss).toBeCloseTo(expected.loss, 5)
    inputGradient.forEach((value, k) => expect(value).toBeCloseTo(expected.gradient[k]!, 6))
    expect(Math.max(...Array.from(expected.gradient, Math.abs))).toBeGreaterThan(1e-3)
    for (const mask of masks) mask.dispose()
    tf.dispose(discriminatorVariables(discriminator) as Array<tf.Variable>)
  })
})

describe("the direct DP-SGD noise", () => {
  it("adds the tfjs step's noise value for value, and its spread is σC / expected batch", () => {
    const sums = Float32Array.from({ length: 200_000 }, (_, k) => (k % 7) - 3)
    const deviation = 1.3
    const expectedBatch = 50
    const direct = Float32Array.from(sums)
    addNoiseAndAverage(direct, deviation, expectedBatch, makeRandom(11))
    const reference = tf.tidy(() =>
      tf.div(tf.add(tf.tensor1d(sums), tf.tensor1d(gaussians(sums.length, deviation, makeRandom(11)))), expectedBatch).dataSync()
    )
    expect(Array.from(direct)).toEqual(Array.from(reference))
    // Noise alone: mean 0, standard deviation deviation / expectedBatch (0.026), within sampling error.
    let sum = 0
    let squares = 0
    direct.forEach((value, k) => {
      const noise = value - sums[k]! / expectedBatch
      sum += noise
      squares += noise * noise
    })
    const mean = sum / direct.length
    const spread = Math.sqrt(squares / direct.length - mean * mean)
    expect(Math.abs(mean)).toBeLessThan((4 * deviation) / expectedBatch / Math.sqrt(direct.length))
    expect(spread / (deviation / expectedBatch)).toBeCloseTo(1, 2)
  })
})

const table = smallTable
const transformer = smallTransformer
const settings = smallSettings({ targetEpsilon: 5 })
// Only the sampling rate, σ and C reach a step.
const plan = { sampleRate: 0.25, noiseMultiplier: 1.1, maxGradNorm: 0.5 } as PrivacyPlan

/** Three DP steps from the same seed (same weights, same draws), through the step `engine` builds. */
const threeSteps = (engine: "direct" | "tfjs") => {
  const random = makeRandom(21)
  const parts = makeCtganParts(table, transformer, settings, random)
  const context = trainingContextOf(table, transformer, parts, settings, { batchRows: settings.batchSize, exchange: null }, random.fork())
  const draw = conditionDraw(parts.index.counts)
  const trainer = engine === "tfjs"
    ? { step: dpCtganStep(context, plan, draw), settle: () => {}, dispose: () => {} }
    : directDpCtganTrainer(context, plan, draw, products())
  const losses: ReadonlyArray<StepLosses> = [trainer.step(), trainer.step(), trainer.step()]
  trainer.settle()
  const weights = {
    critic: readWeights(discriminatorVariables(parts.discriminator)),
    generator: readWeights(generatorVariables(parts.generator))
  }
  trainer.dispose()
  disposeCtganParts(parts, false)
  return { losses, weights }
}

/** The share of coordinates at which two weight arrays differ by more than `tolerance`. */
const differingShare = (a: Float32Array, b: Float32Array, tolerance: number) => {
  let differing = 0
  a.forEach((value, k) => {
    if (Math.abs(value - b[k]!) > tolerance) differing++
  })
  return differing / a.length
}

describe("the direct DP-CTGAN step", () => {
  it("draws the same batches and noise as the tfjs step and gives its losses, step after step", () => {
    expect(settings.pac).toBe(1)
    const { losses: direct, weights } = threeSteps("direct")
    const { losses: reference, weights: referenceWeights } = threeSteps("tfjs")
    // Step 1's critic loss is computed before any update: the same weights on the same draws.
    expect(direct[0]!.discriminator).toBeCloseTo(reference[0]!.discriminator, 5)
    // Later losses follow updates, where float rounding in the two computations can nudge Adam's first steps.
    direct.forEach((losses, i) => {
      expect(losses.discriminator).toBeCloseTo(reference[i]!.discriminator, 3)
      expect(losses.generator).toBeCloseTo(reference[i]!.generator, 3)
    })
    expect(new Set(direct.map(({ generator }) => generator)).size).toBe(3)
    // Adam moves every weight by ~2e-4 a step, nearly whatever the gradient's size: a different gradient (noise of
    // another scale, another clipping) shows as weights apart, while rounding flips a rare coordinate's direction.
    expect(differingShare(weights.critic, referenceWeights.critic, 1e-5)).toBeLessThan(0.01)
    expect(differingShare(weights.generator, referenceWeights.generator, 1e-5)).toBeLessThan(0.01)
  })
})
