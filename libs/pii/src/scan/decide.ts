import { piiCatalog } from "../catalog.ts"
import { nameWords } from "../context/columnName.ts"
import { notPersonWords } from "../context/vocabulary.ts"
import { valuesAreCities, valuesAreNames, valuesLookLikeNames, valuesLookLikePlaces } from "../lexicon/valueVocabulary.ts"
import type { PiiMethod, PiiType } from "../types.ts"
import type { ColumnEvidence, TypeEvidence } from "./evidence.ts"
import type { PiiFinding } from "./PiiScan.ts"

/**
 * Confidence, from the evidence (clamped to 0.99: nothing here is certain):
 *   base by how the values were validated: checksum 0.9, strict format 0.8, loose format 0.45, none 0.35;
 *   × (0.6 + 0.4 × how far the match share is above one half), so 50 % matching gives 60 % of the base;
 *   + 0.25 when the whole column name says the type, + 0.15 when part of it does, + 0.1 when it names a role
 *   (`employee`, `who`) and the values read as names, + 0.1 when neighbours support it, + 0.2 when the values' words
 *   alone say person names or cities (lexicon/).
 * A finding needs: a checksum or strict format matching ≥ 80 % of values (unless the name vetoes formats), or a
 * name or neighbours that say the type with ≥ 50 % of values in its format, or (street addresses only, whose format
 * is distinctive) ≥ 80 % matching alone, or values whose words read as person names or cities (the name lists and
 * gazetteer of lexicon/); and a confidence of at least `minimumConfidence`. Decimals are measurements and Unix
 * times are times: such columns get only a type their name states (or coordinates, for a latitude/longitude pair).
 */
export const minimumConfidence = 0.4

const baseConfidence = { checksum: 0.9, strict_format: 0.8, loose_format: 0.45 } as const

const shareFactor = (share: number) => 0.6 + 0.4 * Math.min(1, Math.max(0, (share - 0.5) / 0.5))

export const clampConfidence = (value: number) => Math.round(Math.min(0.99, Math.max(0, value)) * 1000) / 1000

interface Candidate {
  readonly type: PiiType
  readonly confidence: number
  readonly methods: ReadonlyArray<PiiMethod>
  readonly evidence: TypeEvidence | undefined
}

/** Whether a type may be given to the column at all, by what its numbers are (see ColumnEvidence.numbers). */
export const numbersAllow = (evidence: ColumnEvidence, type: PiiType): boolean => {
  if (evidence.numbers === "decimals") return type === "geo_coordinates"
  if (evidence.numbers === "unix_times") {
    return evidence.hint !== undefined && evidence.hint.strength !== "role" && evidence.hint.types.includes(type)
  }
  return true
}

/** The values alone decide: a strong format, a street address, or words that read as names or cities. */
const valuesDecide = (evidence: ColumnEvidence, type: PiiType, values: TypeEvidence | undefined): "format" | "vocabulary" | undefined => {
  if (values !== undefined && (values.strength !== "loose_format" || type === "street_address") && values.share >= 0.8 && !evidence.vetoed) {
    return "format"
  }
  const vocabulary = evidence.vocabulary
  if (vocabulary === undefined) return undefined
  if (type === "person_name" && valuesAreNames(vocabulary) && !nameWords(evidence.column.name).some((word) => notPersonWords.has(word))) {
    return "vocabulary"
  }
  if (type === "city" && valuesAreCities(vocabulary) && !evidence.vetoed) return "vocabulary"
  return undefined
}

/** Context that counts for the type: the name (a role only when the values read as names), and the neighbours. */
const contextFor = (evidence: ColumnEvidence, type: PiiType, neighbours: ReadonlySet<PiiType>) => {
  const vocabulary = evidence.vocabulary
  const namesInValues = vocabulary !== undefined && valuesLookLikeNames(vocabulary)
  const hint = evidence.hint?.types.includes(type) === true ? evidence.hint.strength : undefined
  const named = hint === "role" && !namesInValues ? undefined : hint
  let supported = neighbours.has(type)
  if (type === "city") supported &&= vocabulary !== undefined && valuesLookLikePlaces(vocabulary)
  if (type === "person_name" && hint === "role") supported &&= namesInValues
  // Under a `name` column, values that read as companies, products or places are not people (`employer_name`).
  if (type === "person_name" && vocabulary !== undefined && !namesInValues && vocabulary.thing + vocabulary.place + vocabulary.region >= 0.5) {
    return { named: undefined, supported: false }
  }
  return { named, supported }
}

const nameBonus = { exact: 0.25, partial: 0.15, role: 0.1 } as const

const candidateFor = (evidence: ColumnEvidence, type: PiiType, neighbours: ReadonlySet<PiiType>): Candidate | undefined => {
  if (!numbersAllow(evidence, type)) return undefined
  const values = evidence.byType.get(type)
  const { named, supported } = contextFor(evidence, type, neighbours)
  const decided = valuesDecide(evidence, type, values)
  const methods: Array<PiiMethod> = []
  if (values !== undefined || decided !== undefined) methods.push("pattern")
  if (named !== undefined || supported) methods.push("context")
  const accepted =
    decided !== undefined ||
    ((named !== undefined || supported) && values !== undefined && values.share >= 0.5) ||
    // A numeric latitude/longitude pair has no single-value format; the pair itself is the evidence.
    (type === "geo_coordinates" && supported)
  if (!accepted) return undefined
  const base = values === undefined ? 0.35 : baseConfidence[values.strength] * shareFactor(values.share)
  const bonus = (named === undefined ? 0 : nameBonus[named]) + (supported ? 0.1 : 0) + (decided === "vocabulary" ? 0.2 : 0)
  const confidence = clampConfidence(base + bonus)
  if (confidence < minimumConfidence) return undefined
  return { type, confidence, methods, evidence: values }
}

/**
 * Which candidate a column gets: confidence, then checksums before formats; a type the whole name states outranks
 * a mere format of another type (`cpf` values `123.456.789-09` also pass as a phone number somewhere).
 */
const rank = (candidate: Candidate, evidence: ColumnEvidence) => {
  const strength = candidate.evidence?.strength
  const statedByName = evidence.hint?.strength === "exact" && evidence.hint.types.includes(candidate.type)
  return candidate.confidence + (strength === "checksum" ? 0.2 : strength === "strict_format" ? 0.01 : 0) + (statedByName ? 0.15 : 0)
}

/** The column's finding, if any: the best-supported type (checksums before formats before names on ties). */
export const decideColumn = (
  evidence: ColumnEvidence,
  neighbours: ReadonlySet<PiiType>,
  mask: (type: PiiType, value: string) => string
): PiiFinding | undefined => {
  if (evidence.present.length === 0) return undefined
  const types = new Set<PiiType>([...evidence.byType.keys(), ...(evidence.hint?.types ?? []), ...neighbours])
  let best: Candidate | undefined
  for (const type of types) {
    const candidate = candidateFor(evidence, type, neighbours)
    if (candidate !== undefined && (best === undefined || rank(candidate, evidence) > rank(best, evidence))) best = candidate
  }
  if (best === undefined) return undefined
  return findingOf(evidence, best.type, best.confidence, best.methods, mask)
}

/** A finding with masked samples: values that pass the type's detector first, any present values otherwise. */
export const findingOf = (
  evidence: ColumnEvidence,
  type: PiiType,
  confidence: number,
  methods: ReadonlyArray<PiiMethod>,
  mask: (type: PiiType, value: string) => string
): PiiFinding => {
  const values = evidence.byType.get(type)
  const samples = new Set<string>()
  const pick = (accept: (value: string) => boolean) => {
    for (const value of evidence.present) {
      if (samples.size >= 3) return
      if (accept(value)) samples.add(mask(type, value))
    }
  }
  if (values !== undefined) pick(values.detector.matches)
  pick(() => true)
  const info = piiCatalog[type]
  return {
    column: evidence.column.name,
    type,
    confidence,
    sample_values: [...samples],
    recommendation: info.recommendation,
    category: info.category,
    sensitivity: info.sensitivity,
    methods,
    match_share: values === undefined ? null : Math.round(values.share * 1000) / 1000,
    validation: values?.strength ?? null
  }
}
