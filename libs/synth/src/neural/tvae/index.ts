/**
 * TVAE (Xu et al. 2019, "Modeling Tabular Data using Conditional GAN", as SDV implements it): a variational
 * autoencoder over the rows the reversible table transformer encodes. Loads TensorFlow.js; import it only where
 * training or sampling runs.
 */
import { Result } from "effect"
import { startWasmBackend } from "../tf/wasmBackend.ts"
import { tvaePartsFromArtifact, type TvaeArtifactError } from "./artifact.ts"
import { tvaeModelOf, type TvaeModel } from "./model.ts"

export { TVAE_FORMAT, TVAE_FORMAT_VERSION, TvaeArtifact, TvaeArtifactError } from "./artifact.ts"
export { fitTvae } from "./fitTvae.ts"
export type { TvaeModel } from "./model.ts"
export { TVAE_DEFAULTS, TvaeFitError, type TvaeOptions } from "./options.ts"

/** A stored artifact (`model.toJSON()`) back as a model that samples exactly what the trained one did, or why not. */
export const tvaeFromJSON = async (json: unknown): Promise<Result.Result<TvaeModel, TvaeArtifactError>> => {
  await startWasmBackend()
  return Result.map(tvaePartsFromArtifact(json), tvaeModelOf)
}
