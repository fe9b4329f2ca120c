import type { KeyedBloomFilter } from "../keyedBloom.ts"
import type { FakeKind } from "../roles/ColumnPlan.ts"
import { detectorFor } from "./detectors.ts"
import { type Draws, makeDraws, randomSubset, textHash } from "./draws.ts"
import { fakeError } from "./family.ts"
import type { FakePlan } from "./FakePlan.ts"
import { integerKey } from "./families/template.ts"
import { compileGenerator } from "./generators.ts"
import { keyLikeKinds } from "./planFakeColumn.ts"

/** Draws for one value before the column is declared too small for the output (fresh values all used up). */
const maxDrawsPerValue = 1_000

/**
 * Kinds whose generator is valid by construction, so the detector is not re-run on every fake: the e-mail detector
 * (validator's isEmail) costs ~6 µs a value, more than making the address. The unit tests check these fakes against
 * the detector instead.
 */
const validByConstruction: ReadonlySet<FakeKind> = new Set<FakeKind>(["email_address"])

/** Exactly round(rate × rows) rows, at random positions. */
const missingRows = (rate: number, rows: number, draws: Draws): Uint8Array => randomSubset(rows, Math.round(rate * rows), draws)

/**
 * `rows` fake values of a planned column: never a value the real-value filter holds (checked on the value's key, so
 * `123456789` is as real as `123-45-6789`), distinct when the plan says so, recognised by the scan's detector when the
 * real values were, missing at the real rate. The same plan, rows, seed and filter give the same values.
 */
export const fakeColumn = (plan: FakePlan, rows: number, seed: number, realValues: KeyedBloomFilter): ReadonlyArray<string | null> => {
  const draws = makeDraws(textHash(`synth.fake\u0000${seed}\u0000${plan.column}`))
  const missing = missingRows(plan.missingRate, rows, draws)
  const presentRows = rows - missing.reduce((sum, flag) => sum + flag, 0)
  const next = compileGenerator(plan.generator, { draws, column: plan.column, needed: presentRows + plan.realRows, unique: plan.unique })
  const detect = plan.detectable && !validByConstruction.has(plan.kind) ? detectorFor(plan.kind) : undefined
  const digits = plan.integerDigits
  const seen = plan.unique ? new Set<string>() : undefined
  // Keys (ids, e-mails, documents, cards) must never repeat. Names and addresses of a column that happened to be
  // distinct stay distinct while the name lists last, then may repeat: real tables of millions have namesakes too.
  const repeatAfter = keyLikeKinds.has(plan.kind) ? Number.POSITIVE_INFINITY : maxDrawsPerValue / 10
  const output = new Array<string | null>(rows)
  for (let row = 0; row < rows; row++) {
    if (missing[row] === 1) {
      output[row] = null
      continue
    }
    let found = false
    for (let attempt = 0; attempt < maxDrawsPerValue && !found; attempt++) {
      let { key, text } = next()
      if (digits !== null) {
        text = integerKey(text)
        key = text
        if (text.length < digits.min || text.length > digits.max || !Number.isSafeInteger(Number(text))) continue
      }
      if (detect !== undefined && !detect(text)) continue
      if (realValues.mightContain(key)) continue
      if (seen !== undefined) {
        if (seen.has(key) && attempt < repeatAfter) continue
        seen.add(key)
      }
      output[row] = text
      found = true
    }
    if (!found) {
      throw fakeError(
        plan.column,
        `no fresh value after ${maxDrawsPerValue} draws for value ${row + 1} of ${rows}: its formats allow too few values that are neither real nor already used; drop the column, keep it hashed, or ask for fewer rows`
      )
    }
  }
  return output
}
