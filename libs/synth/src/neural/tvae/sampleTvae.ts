/**
 * Sampling as SDV's `TVAE.sample`, with one difference: decode standard normal noise a batch at a time, tanh on the
 * value outputs, and draw each normalised value from N(decoded, σ) with the learned σ of its output (SDV's
 * `inverse_transform(data, sigmas)`) before the mode-specific normalisation is undone (our transformer's decoder
 * clips to ±1 there, as rdt). A mode span is read by its largest entry, as SDV does.
 *
 * The difference: a category span and a missing-value indicator are drawn from their softmax, the categorical
 * distribution the decoder was trained to give (the loss is its cross-entropy), as the values are drawn from theirs.
 * SDV reads them by their largest entry, which turns every uncertain output into the most frequent category: after
 * 30 epochs on telco_churn its TVAE and ours drew no senior citizen and 98 % "no dependents" (real: 16 % and 70 %),
 * and our quality score went from 0.80 to 0.88 with the draw (docs/benchmarks.md, "TVAE category coverage").
 * Modes stay read by their largest entry: drawing them too put values into modes their normalised part was not
 * decoded for, and cost credit_data and diamonds quality. `reading: "argmax"` gives SDV's reading, for comparisons.
 *
 * The normal draws (the embedding noise and each value's spread) come from the polar method on 32-bit uniforms
 * (ctgan/noise.ts) since 2026-11-28: Box–Muller on 53-bit uniforms took half of the sampling time (~1.4 s of 2.5 s
 * for 50,000 telco_churn rows). The same distribution; other rows for a seed than before.
 */
import { makeRandom } from "../../random.ts"
import type { SynthTable } from "../../table.ts"
import type { Span } from "../../transform/index.ts"
import { fillStandardNormals } from "../ctgan/noise.ts"
import { drawOneHot } from "../softmaxDraw.ts"
import { decoderPass } from "./decoderPass.ts"
import type { TvaeParts } from "./parts.ts"

/** How one-hot category and missing spans become a choice: drawn from their softmax (ours) or argmax (SDV's). */
export type CategoryReading = "drawn" | "argmax"

const isDrawn = (span: Span) => span.role === "category" || span.role === "missing"

export const sampleTvae = (
  settings: Pick<TvaeParts, "batchSize" | "decoder" | "embeddingDim" | "transformer">,
  rows: number,
  seed: number,
  onProgress?: (rowsDone: number) => void,
  reading: CategoryReading = "drawn",
  engine: "auto" | "tfjs" = "auto"
): SynthTable => {
  const { batchSize, decoder, embeddingDim, transformer } = settings
  const random = makeRandom(seed)
  const noiseRandom = random.fork()
  const valueRandom = random.fork()
  const output = transformer.decoder(rows, random.fork())
  const categoryRandom = random.fork()
  const width = transformer.width
  const valueOffsets = transformer.spans.filter((span) => span.activation === "tanh").map((span) => span.offset)
  const drawnSpans = reading === "drawn" ? transformer.spans.filter(isDrawn) : []
  const sigmas = decoder.sigma.dataSync()
  const pass = decoderPass(decoder, batchSize, engine)
  const noise = new Float32Array(batchSize * embeddingDim)
  const valueNoise = new Float32Array(batchSize * valueOffsets.length)
  for (let done = 0; done < rows; ) {
    const count = Math.min(batchSize, rows - done)
    fillStandardNormals(noise.subarray(0, count * embeddingDim), noiseRandom)
    fillStandardNormals(valueNoise.subarray(0, count * valueOffsets.length), valueRandom)
    const decoded = pass.run(noise, count)
    // The raw outputs: the draws need the logits; argmax reads them as it would their tanh.
    for (let i = 0; i < count; i++) {
      const row = i * width
      const drawn = i * valueOffsets.length
      for (let v = 0; v < valueOffsets.length; v++) {
        const offset = valueOffsets[v]!
        decoded[row + offset] = Math.tanh(decoded[row + offset]!) + sigmas[offset]! * valueNoise[drawn + v]!
      }
      for (const span of drawnSpans) drawOneHot(decoded, row + span.offset, span.width, categoryRandom.next())
    }
    output.write(decoded, count)
    done += count
    onProgress?.(done)
  }
  return output.finish()
}
