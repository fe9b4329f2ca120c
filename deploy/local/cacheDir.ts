import { homedir } from "node:os"
import { join } from "node:path"

/**
 * Where downloads and builds of the local servers are kept between runs: INFRA_CACHE_DIR, else the user's cache
 * (`$XDG_CACHE_HOME/synth-data-service/infra`, `~/.cache/…` by default). Per user rather than per checkout, as npm's
 * and Go's caches are: a fresh clone (every CI run is one) would otherwise rebuild MinIO from source, minutes of both
 * cores, while its tests run.
 */
export const infraCacheDir = (env: Readonly<Record<string, string | undefined>>): string =>
  nonEmpty(env.INFRA_CACHE_DIR) ?? join(nonEmpty(env.XDG_CACHE_HOME) ?? join(homedir(), ".cache"), "synth-data-service", "infra")

const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value)
