import type { ColumnType } from "@synth/synth"
import { createHash } from "node:crypto"
import { type KeyedBloomFilter, keyedBloomFilter } from "../keyedBloom.ts"
import type { FakeKind } from "../roles/ColumnPlan.ts"
import { detectorFor } from "./detectors.ts"
import { makeDraws, randomSubset, textHash } from "./draws.ts"
import type { FakePlan } from "./FakePlan.ts"
import { integerKey } from "./families/template.ts"
import { generatorKey } from "./generators.ts"
import { defaultGenerator, learnGenerator } from "./learn.ts"
import { heldMix } from "./mix.ts"

export interface FakeColumnInput {
  readonly name: string
  readonly type: ColumnType
  readonly kind: FakeKind
  /** The real column's values as text: integers in plain decimal, dates YYYY-MM-DD, datetimes ISO 8601; null = missing. */
  readonly values: ReadonlyArray<string | null>
}

export interface FakeSettings {
  readonly seed: number
  /** k: a format, e-mail domain, locale, country or prefix seen in fewer than k rows is not learned (it could single someone out). */
  readonly rareThreshold: number
  /**
   * false (dp-ctgan): learn nothing from the values — type defaults only, no missing rate, unique for key-like
   * types — except the real-value filter.
   */
  readonly learnFromValues: boolean
}

/** Kinds that are one person's own (an account, a document, a card): distinct per row even when nothing is learned. */
export const keyLikeKinds: ReadonlySet<FakeKind> = new Set<FakeKind>([
  "identifier",
  "email_address",
  "phone_number",
  "social_security_number",
  "passport_number",
  "drivers_license_number",
  "uk_national_insurance_number",
  "nhs_number",
  "canadian_social_insurance_number",
  "national_id_number",
  "username",
  "credit_card_number",
  "iban",
  "bank_account_number",
  "crypto_wallet_address",
  "medical_record_number",
  "npi_number",
  "mac_address"
])

/**
 * Without learning (dp-ctgan), fakes of these kinds are distinct too: a rule of the kind, not a fact of the data. Names
 * and addresses are distinct as far as the name lists allow (fakeColumn lets them repeat once they run out).
 */
const distinctWithoutLearning: ReadonlySet<FakeKind> = new Set<FakeKind>([...keyLikeKinds, "person_name", "street_address"])

/** The share of real values the scan's detector must recognise before every fake has to be recognised too. */
const detectableShare = 0.9

/** False-positive rate of the real-value filter: one fresh candidate in a thousand is redrawn needlessly. */
const realValueFalsePositiveRate = 1e-3

const isNumeric = (type: ColumnType) => type === "integer" || type === "float"

const anyIntegerDigits = { min: 1, max: 16 }

/** The digit counts ≥ k rows have, for integer-typed columns whose fakes are digits of a kind (phones, SSNs...). */
const integerDigitsOf = (values: ReadonlyArray<string>, k: number): FakePlan["integerDigits"] => {
  const counts = heldMix(values.map((value) => integerKey(value).length).filter((count) => count >= 1 && count <= 16), String, k).map((entry) => entry.value)
  return counts.length === 0 ? anyIntegerDigits : { min: Math.min(...counts), max: Math.max(...counts) }
}

/**
 * The values formats are learned from: all of them up to 20,000, else a seeded sample of 20,000 (formats, locales and
 * their shares are as good from a sample; parsing a million e-mail addresses is not). A format held by k rows of the
 * sample is held by at least k rows of the column. Uniqueness and the real-value filter always use every value.
 */
const learningSampleSize = 20_000

const learningSample = (present: ReadonlyArray<string>, seed: number): ReadonlyArray<string> => {
  if (present.length <= learningSampleSize) return present
  const chosen = randomSubset(present.length, learningSampleSize, makeDraws(textHash(`synth.fake.sample\u0000${seed}`)))
  return present.filter((_, index) => chosen[index] === 1)
}

/** The filter's key: from the request's seed and the column, so no two columns or generators share bits. */
export const realValuesKey = (seed: number, column: string) =>
  createHash("sha256").update(`synth.fake.real-values\u0000${seed}\u0000${column}`).digest("hex").slice(0, 32)

/** The form of a value the real-value filter holds: the generator's key, digits without leading zeros for integers. */
export const fakeValueKey = (plan: FakePlan, value: string): string =>
  plan.integerDigits !== null ? integerKey(value) : generatorKey(plan.generator, value)

/**
 * What the fakes of one column are made from (its plan: formats, locales, mixes held by ≥ k rows, counts, flags,
 * never a value) and the filter of its real values that every fake is checked against.
 */
export const planFakeColumn = (input: FakeColumnInput, settings: FakeSettings): { plan: FakePlan; realValues: KeyedBloomFilter } => {
  const present = input.values.filter((value): value is string => value !== null).map((value) => value.trim()).filter((value) => value !== "")
  const k = Math.max(1, Math.floor(settings.rareThreshold))
  const learn = settings.learnFromValues
  const sample = learningSample(present, settings.seed)
  const generator = learn ? learnGenerator(input.kind, sample, { k, type: input.type }) : defaultGenerator(input.kind, { type: input.type })
  const detect = detectorFor(input.kind)
  const integerDigits =
    isNumeric(input.type) && generator._tag !== "integer_key" && generator._tag !== "geo_number" && generator._tag !== "decimal" && generator._tag !== "boolean"
      ? learn
        ? integerDigitsOf(sample, k)
        : anyIntegerDigits
      : null
  const plan: FakePlan = {
    version: 1,
    column: input.name,
    type: input.type,
    kind: input.kind,
    realRows: learn ? present.length : 0,
    missingRate: learn && input.values.length > 0 ? (input.values.length - present.length) / input.values.length : 0,
    unique:
      input.type !== "boolean" &&
      (input.kind === "identifier" ||
        (learn ? present.length > 0 && new Set(present).size === present.length : distinctWithoutLearning.has(input.kind))),
    detectable:
      detect !== undefined &&
      (learn
        ? sample.length > 0 && sample.filter(detect).length >= detectableShare * sample.length
        : input.type === "string" || (input.type === "date" && input.kind === "date_of_birth")),
    integerDigits,
    generator
  }
  // Two values cannot hide anyone, and every fake of a boolean would be one of them: its fakes are not filtered.
  const keys = new Set(input.type === "boolean" ? [] : present.map((value) => fakeValueKey(plan, value)))
  const realValues = keyedBloomFilter(keys.size, realValueFalsePositiveRate, realValuesKey(settings.seed, input.name))
  for (const key of keys) realValues.add(key)
  return { plan, realValues }
}
