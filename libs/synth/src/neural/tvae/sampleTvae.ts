/**
 * Sampling as SDV's `TVAE.sample`: decode standard normal noise a batch at a time, tanh on the output, then
 * `inverse_transform(data, sigmas)`, which draws each normalised value from N(decoded, σ) with the learned σ of its
 * output before the mode-specific normalisation is undone (our transformer's decoder clips to ±1 there, as rdt).
 * Softmax spans are read by their largest entry, which tanh does not change.
 */
import * as tf from "@tensorflow/tfjs"
import { makeRandom } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import { applyDecoder } from "./network.ts"
import type { TvaeParts } from "./parts.ts"

export const sampleTvae = (
  settings: Pick<TvaeParts, "batchSize" | "decoder" | "embeddingDim" | "transformer">,
  rows: number,
  seed: number,
  onProgress?: (rowsDone: number) => void
): SynthTable => {
  const { batchSize, decoder, embeddingDim, transformer } = settings
  const random = makeRandom(seed)
  const noiseRandom = random.fork()
  const valueRandom = random.fork()
  const output = transformer.decoder(rows, random.fork())
  const width = transformer.width
  const valueOffsets = transformer.spans.filter((span) => span.activation === "tanh").map((span) => span.offset)
  const sigmas = decoder.sigma.dataSync()
  const noise = new Float32Array(batchSize * embeddingDim)
  for (let done = 0; done < rows; ) {
    const count = Math.min(batchSize, rows - done)
    for (let i = 0; i < count * embeddingDim; i++) noise[i] = noiseRandom.normal()
    let decoded: Float32Array = new Float32Array(0)
    // Assigned, not returned: tf.tidy walks whatever it returns element by element, looking for tensors.
    tf.tidy(() => {
      const z = tf.tensor2d(noise.subarray(0, count * embeddingDim), [count, embeddingDim])
      decoded = tf.tanh(applyDecoder(decoder, z)).dataSync() as Float32Array
    })
    for (let i = 0; i < count; i++) {
      for (const offset of valueOffsets) {
        const at = i * width + offset
        decoded[at] = decoded[at]! + sigmas[offset]! * valueRandom.normal()
      }
    }
    output.write(decoded, count)
    done += count
    onProgress?.(done)
  }
  return output.finish()
}
