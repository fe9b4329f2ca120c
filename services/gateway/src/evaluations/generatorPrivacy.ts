import { type EvaluationGeneratorPrivacy, protectionBounds } from "@synth/contracts"
import type { GeneratorRow } from "../generators/GeneratorRepository.ts"

/** k of generators that record none (the generation default). */
const defaultRareCategoryThreshold = 5

/**
 * What an evaluation must know of a generator's protections, from its record: the column roles and handlings, how
 * its held-out rows were drawn (share, the bound on their number and its seed, as the generation job drew them with
 * @synth/protect's holdoutRows) with the count it recorded, and k. Undefined for a generator from before protections
 * existed: its evaluation then runs as evaluations always did, and cannot call the output safe.
 */
export const generatorPrivacyOf = (generator: GeneratorRow): EvaluationGeneratorPrivacy | undefined => {
  const privacy = generator.privacy
  const protections = privacy?.protections
  if (generator.columns === null && protections === undefined) return undefined
  return {
    columns: generator.columns,
    holdout: protections === undefined || privacy?.holdoutRows === undefined
      ? null
      : { share: protections.holdoutShare, maxRows: protectionBounds.holdoutMaxRows, seed: generator.seed, rows: privacy.holdoutRows },
    rareCategoryThreshold: protections?.rareCategoryThreshold ?? defaultRareCategoryThreshold
  }
}
