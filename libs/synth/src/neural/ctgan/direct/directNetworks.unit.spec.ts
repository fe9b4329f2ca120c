import * as tf from "@tensorflow/tfjs"
import { beforeAll, describe, expect, it } from "vitest"
import { makeRandom } from "../../../random.ts"
import type { Span } from "../../../transform/index.ts"
import { readWeights } from "../../parallel/weights.ts"
import { loadNativeGemm } from "../../tf/native/nativeGemm.ts"
import { startWasmBackend } from "../../tf/wasmBackend.ts"
import { gumbelNoise, makeOutputHeads } from "../activation.ts"
import type { Conditions, ConditionSpace } from "../conditions.ts"
import { criticLoss } from "../ctganStep.ts"
import { applyDiscriminator, discriminatorVariables, makeDiscriminator } from "../discriminator.ts"
import { applyGenerator, generatorVariables, makeGenerator } from "../generator.ts"
import { fairCoins, standardNormals } from "../noise.ts"
import { ctganReference as reference, type DenseJson } from "../testing/ctganReference.ts"
import { makeDirectCritic } from "./directCritic.ts"
import { makeDirectGenerator } from "./directGenerator.ts"
import { makeDirectHeads } from "./directHeads.ts"
import { type Products, productsOf } from "./matrices.ts"

let products: Products

beforeAll(async () => {
  await startWasmBackend()
  const native = loadNativeGemm()
  if (native._tag !== "Loaded") throw new Error(`ONNX Runtime did not load: ${native.reason}`)
  products = productsOf(native.gemm)
})

/** |actual − expected| ≤ tolerance · max(1, |expected|) entry by entry; the scale guards against all-zero checks. */
const expectClose = (actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number) => {
  expect(actual.length).toBe(expected.length)
  let largest = 0
  for (let i = 0; i < expected.length; i++) {
    largest = Math.max(largest, Math.abs(expected[i]!))
    const error = Math.abs(actual[i]! - expected[i]!)
    if (!(error <= tolerance * Math.max(1, Math.abs(expected[i]!)))) {
      throw new Error(`entry ${i}: ${actual[i]} against ${expected[i]}`)
    }
  }
  expect(largest).toBeGreaterThan(0)
}

/** Gradients of `loss` for `variables`, flat in their order (readWeights' layout). */
const flatGradients = (loss: () => tf.Scalar, variables: ReadonlyArray<tf.Variable>): Float32Array => {
  const { grads, value } = tf.variableGrads(loss, [...variables])
  const flat = new Float32Array(variables.reduce((sum, variable) => sum + variable.size, 0))
  let offset = 0
  for (const variable of variables) {
    flat.set(grads[variable.name]!.dataSync() as Float32Array, offset)
    offset += variable.size
  }
  tf.dispose([value, ...Object.values(grads)])
  return flat
}

const flatDense = (layers: ReadonlyArray<DenseJson>) => Float32Array.from(layers.flatMap(({ bias, weight }) => [...weight.flat(), ...bias]))

describe("the direct critic", () => {
  it("gives ctgan 0.12.1's WGAN loss, gradient penalty and second-order gradients", () => {
    const { discriminator: json, pac, rows } = reference
    const packs = rows / pac
    const inputs = pac * json.real[0]!.length
    const hidden = json.layers.slice(0, -1).map(({ bias }) => bias.length)
    const gradients = new Float32Array(flatDense(json.layers).length)
    const critic = makeDirectCritic({ inputs, hidden, maxRows: 3 * packs }, flatDense(json.layers), gradients, products)
    const real = json.real.flat()
    const fake = json.fake.flat()
    critic.input.set(real, 0)
    critic.input.set(fake, packs * inputs)
    for (let pack = 0; pack < packs; pack++) {
      const alpha = json.alphas[pack]!
      for (let i = 0; i < inputs; i++) {
        const at = pack * inputs + i
        critic.input[2 * packs * inputs + at] = alpha * real[at]! + (1 - alpha) * fake[at]!
      }
    }
    // The reference runs in eval mode (no dropout): masks of ones.
    for (const mask of critic.masks) mask.fill(1)
    const { penalty, wasserstein } = critic.criticGradients(packs, 10)
    expect(wasserstein).toBeCloseTo(json.wasserstein, 5)
    expect(penalty).toBeCloseTo(json.penalty, 4)
    expectClose(gradients, flatDense(json.gradients), 1e-4)
  })

  it("gives tfjs's gradients of the critic loss with dropout, and of the generator's loss through it", () => {
    const random = makeRandom(11)
    const [pac, rowWidth, rows] = [4, 9, 24]
    const packs = rows / pac
    const discriminator = makeDiscriminator(rowWidth, [16, 12], pac, random)
    const variables = discriminatorVariables(discriminator)
    const real = standardNormals(rows * rowWidth, random)
    const fake = standardNormals(rows * rowWidth, random)
    const alphas = Float32Array.from({ length: packs }, () => random.next())
    const masks = [0, 1, 2].map(() => discriminator.hidden.map((layer) => fairCoins(packs * layer.bias.shape[0], 2, random)))

    const expected = tf.tidy(() => {
      const maskTensors = masks.map((pass) => pass.map((mask, l) => tf.tensor2d(mask, [packs, discriminator.hidden[l]!.bias.shape[0]])))
      const alphaRows = tf.tensor2d(Float32Array.from({ length: rows }, (_, row) => alphas[Math.floor(row / pac)]!), [rows, 1])
      const loss = () =>
        criticLoss(discriminator, tf.tensor2d(real, [rows, rowWidth]), tf.tensor2d(fake, [rows, rowWidth]), alphaRows, {
          real: maskTensors[0]!,
          fake: maskTensors[1]!,
          penalty: maskTensors[2]!
        }).total
      const fakeInput = tf.tensor2d(fake, [rows, rowWidth])
      const inputGradient = tf.grad((x: tf.Tensor) => tf.neg(tf.mean<tf.Scalar>(applyDiscriminator(discriminator, x as tf.Tensor2D, maskTensors[0]!).score)))(fakeInput)
      return { critic: flatGradients(loss, variables), input: inputGradient.dataSync() as Float32Array }
    })

    const gradients = new Float32Array(expected.critic.length)
    const critic = makeDirectCritic({ inputs: pac * rowWidth, hidden: [16, 12], maxRows: 3 * packs }, readWeights(variables), gradients, products)
    const place = () => {
      critic.input.set(real, 0)
      critic.input.set(fake, rows * rowWidth)
      for (let i = 0; i < rows * rowWidth; i++) {
        const alpha = alphas[Math.floor(i / (pac * rowWidth))]!
        critic.input[2 * rows * rowWidth + i] = alpha * real[i]! + Math.fround(1 - alpha) * fake[i]!
      }
      critic.masks.forEach((mask, l) => [0, 1, 2].forEach((pass) => mask.set(masks[pass]![l]!, pass * masks[pass]![l]!.length)))
    }
    place()
    critic.criticGradients(packs, 10)
    expectClose(gradients, expected.critic, 1e-4)

    // The generator's pass: fake rows and the first pass's masks, −mean D, its gradient with respect to the rows.
    critic.input.set(fake, 0)
    critic.masks.forEach((mask, l) => mask.set(masks[0]![l]!, 0))
    const inputGradient = new Float32Array(rows * rowWidth)
    critic.generatorLossGradient(packs, inputGradient)
    expectClose(inputGradient, expected.input, 1e-5)
    for (const variable of variables) variable.dispose()
  })
})

describe("the direct generator and output heads", () => {
  // A value with three modes, a three-category column (the condition) and a two-slot missing indicator.
  const spans: ReadonlyArray<Span> = [
    { column: 0, role: "value", activation: "tanh", offset: 0, width: 1 },
    { column: 0, role: "mode", activation: "softmax", offset: 1, width: 3 },
    { column: 1, role: "category", activation: "softmax", offset: 4, width: 3 },
    { column: 1, role: "missing", activation: "softmax", offset: 7, width: 2 }
  ]
  const width = 9
  const space: ConditionSpace = { columns: [{ column: 1, offset: 4, width: 3, conditionOffset: 0 }], width: 3 }

  it("gives tfjs's gradients of CTGAN's generator loss (adversarial plus conditional)", () => {
    const random = makeRandom(5)
    const [rows, embedding, pac] = [20, 6, 2]
    const packs = rows / pac
    const rowWidth = width + space.width
    const generator = makeGenerator(embedding + space.width, [10, 8], width, random)
    const discriminator = makeDiscriminator(rowWidth, [12], pac, random)
    const conditions: Conditions = {
      columns: new Int32Array(rows),
      slots: Int32Array.from({ length: rows }, () => random.integer(3))
    }
    const conditionRows = new Float32Array(rows * space.width)
    conditions.slots.forEach((slot, row) => (conditionRows[row * space.width + slot] = 1))
    const noise = standardNormals(rows * embedding, random)
    const gumbel = gumbelNoise(rows * width, random)
    const mask = fairCoins(packs * 12, 2, random)
    const input = new Float32Array(rows * (embedding + space.width))
    for (let row = 0; row < rows; row++) {
      input.set(noise.subarray(row * embedding, (row + 1) * embedding), row * (embedding + space.width))
      input.set(conditionRows.subarray(row * space.width, (row + 1) * space.width), row * (embedding + space.width) + embedding)
    }

    const heads = makeOutputHeads(spans, width, space)
    const variables = generatorVariables(generator)
    let expectedLoss = 0
    const expected = tf.tidy(() =>
      flatGradients(() => {
        const raw = applyGenerator(generator, tf.tensor2d(input, [rows, embedding + space.width]))
        const fake = tf.concat([heads.activate(raw, gumbel), tf.tensor2d(conditionRows, [rows, space.width])], 1)
        const scores = applyDiscriminator(discriminator, fake, [tf.tensor2d(mask, [packs, 12])]).score
        const loss = tf.add<tf.Scalar>(tf.neg(tf.mean(scores)), heads.conditionLoss(raw, conditions))
        expectedLoss = loss.dataSync()[0]!
        return loss
      }, variables)
    )
    heads.dispose()

    const gradients = new Float32Array(expected.length)
    const direct = makeDirectGenerator({ inputs: embedding + space.width, hidden: [10, 8], outputs: width, maxRows: rows }, readWeights(variables), gradients, products)
    const criticVariables = discriminatorVariables(discriminator)
    const critic = makeDirectCritic({ inputs: pac * rowWidth, hidden: [12], maxRows: 3 * packs }, readWeights(criticVariables), new Float32Array(readWeights(criticVariables).length), products)
    const directHeads = makeDirectHeads(spans, width, space)
    direct.input.set(input)
    direct.forward(rows)
    const activated = new Float32Array(rows * width)
    directHeads.activate(direct.raw, gumbel, rows, activated)
    for (let row = 0; row < rows; row++) {
      critic.input.set(activated.subarray(row * width, (row + 1) * width), row * rowWidth)
      critic.input.set(conditionRows.subarray(row * space.width, (row + 1) * space.width), row * rowWidth + width)
    }
    critic.masks[0]!.set(mask)
    const activatedGradient = new Float32Array(rows * rowWidth)
    const adversarial = critic.generatorLossGradient(packs, activatedGradient)
    const rawGradient = new Float32Array(rows * width)
    directHeads.backward(activated, activatedGradient, rowWidth, rows, rawGradient)
    const conditional = directHeads.conditionLoss(direct.raw, conditions, rawGradient)
    direct.backward(rows, rawGradient)
    expect(adversarial + conditional).toBeCloseTo(expectedLoss, 4)
    expectClose(gradients, expected, 2e-4)
    for (const variable of [...variables, ...criticVariables]) variable.dispose()
  })
})
