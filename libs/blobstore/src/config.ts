import { Config, Effect, Layer, Option } from "effect"
import { layerLocalConfig } from "./localDirectory.ts"
import { layerS3Config } from "./s3.ts"

/**
 * The blob store the configuration asks for: S3 (MinIO) when S3_ENDPOINT is set, with the other S3_* settings;
 * otherwise the local directory under DATA_DIR (the embedded default). An empty S3_ENDPOINT counts as unset, as
 * compose files and shells often write it.
 */
export const layerFromConfig = Layer.unwrap(
  Effect.map(
    Config.option(Config.String("S3_ENDPOINT")),
    (endpoint) => Option.isSome(Option.filter(endpoint, (url) => url.trim() !== "")) ? layerS3Config : layerLocalConfig
  )
)
