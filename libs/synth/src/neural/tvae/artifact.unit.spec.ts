import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { float32FromBase64, float32ToBase64 } from "../tf/dense.ts"
import { fitTvae, type TvaeArtifact, TvaeArtifactError, tvaeFromJSON } from "./index.ts"
import { twoModeTable } from "./testing/twoModeTable.ts"

const trained = () =>
  fitTvae(twoModeTable(300, 3), { seed: 2, epochs: 2, batchSize: 100, compressDims: [32, 16], decompressDims: [16, 32], embeddingDim: 8 })

/** The artifact through JSON text, as it is stored. */
const stored = (artifact: TvaeArtifact): Record<string, unknown> => JSON.parse(JSON.stringify(artifact)) as Record<string, unknown>

const refusal = async (artifact: unknown) => {
  const loaded = await tvaeFromJSON(artifact)
  if (Result.isSuccess(loaded)) throw new Error("the artifact was accepted")
  expect(loaded.failure).toBeInstanceOf(TvaeArtifactError)
  return loaded.failure.message
}

describe("the TVAE artifact", () => {
  it("is versioned JSON that loads back into a model sampling exactly what the trained one does", async () => {
    const model = await trained()
    const artifact = stored(model.toJSON())
    expect(artifact).toMatchObject({ format: "synth.tvae", formatVersion: 1, embeddingDim: 8, batchSize: 100 })
    expect(artifact.transformer).toMatchObject({ format: "synth.table-transformer" })
    const loaded = Result.getOrThrow(await tvaeFromJSON(artifact))
    expect(loaded.sample(700, 4)).toEqual(model.sample(700, 4))
    expect(loaded.lossHistory).toEqual(model.lossHistory)
    expect(stored(loaded.toJSON())).toEqual(artifact)
  })

  it("is refused, as a value, when it is not a TVAE artifact or does not hold together", async () => {
    const artifact = stored((await trained()).toJSON()) as unknown as TvaeArtifact
    const decoder = artifact.decoder
    const output = decoder.output
    expect(await refusal(null)).toMatch(/Expected/)
    expect(await refusal({ ...artifact, formatVersion: 2 })).toMatch(/formatVersion/)
    expect(await refusal({ ...artifact, transformer: { ...artifact.transformer, columns: [] } })).toMatch(/decoder gives/)
    expect(await refusal({ ...artifact, embeddingDim: 9 })).toMatch(/layer 0 takes 8 inputs/)
    expect(await refusal({ ...artifact, decoder: { ...decoder, output: { ...output, bias: output.bias.slice(0, 8) } } })).toMatch(/float32 values/)
    const sigma = float32FromBase64(decoder.sigma, output.outputs)
    sigma[0] = 3
    expect(await refusal({ ...artifact, decoder: { ...decoder, sigma: float32ToBase64(sigma) } })).toMatch(/σ outside/)
    const bias = float32FromBase64(output.bias, output.outputs)
    bias[1] = Number.NaN
    expect(await refusal({ ...artifact, decoder: { ...decoder, output: { ...output, bias: float32ToBase64(bias) } } })).toMatch(/non-finite/)
  })
})
