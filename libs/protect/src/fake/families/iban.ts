import { allLocales } from "@faker-js/faker"
import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { FakeGenerator, IbanFormat } from "../FakePlan.ts"
import { detectorFor } from "../detectors.ts"
import { seededFaker } from "../locales.ts"
import { compactUpper } from "../masks.ts"
import { heldMix, orDefault } from "../mix.ts"

/**
 * IBANs by country (faker's per-country BBAN formats, valid mod 97), grouped by four or compact, in the column's case.
 */
type IbanGenerator = Extract<FakeGenerator, { _tag: "iban" }>

const fakerFor = (seed: number) => seededFaker("en", seed)

/** Countries faker makes IBANs for: every ISO country faker knows, tried once (~30 ms). */
let ibanCountries: Set<string> | undefined
const supported = () => {
  if (ibanCountries !== undefined) return ibanCountries
  const faker = fakerFor(0)
  ibanCountries = new Set()
  for (const { alpha2 } of allLocales.base.location?.country_code ?? []) {
    try {
      faker.finance.iban({ countryCode: alpha2 })
      ibanCountries.add(alpha2)
    } catch {
      // A country faker has no IBAN format for.
    }
  }
  return ibanCountries
}

const isIban = detectorFor("iban")!

export const learnIban = (values: ReadonlyArray<string>, context: LearnContext): IbanGenerator => {
  const formats: Array<IbanFormat> = []
  for (const value of values) {
    const compact = value.replace(/\s/g, "").toUpperCase()
    if (!isIban(compact)) continue
    const country = compact.slice(0, 2)
    if (!supported().has(country)) continue
    formats.push({ country, grouped: /\s/.test(value.trim()), lowerCase: value === value.toLowerCase() })
  }
  return {
    _tag: "iban",
    formats: orDefault(heldMix(formats, (format) => `${format.country}|${format.grouped}|${format.lowerCase}`, context.k), defaultFormat)
  }
}

const defaultFormat: IbanFormat = { country: "DE", grouped: true, lowerCase: false }

export const defaultIban: IbanGenerator = { _tag: "iban", formats: [{ value: defaultFormat, rows: 1 }] }

export const compileIban = (generator: IbanGenerator, context: CompileContext): CandidateSource => {
  const faker = fakerFor(context.draws.seed())
  const pick = context.draws.weighted(generator.formats)
  return () => {
    const format = pick()
    const iban = faker.finance.iban({ countryCode: format.country, formatted: format.grouped })
    const text = format.lowerCase ? iban.toLowerCase() : iban
    return { text, key: compactUpper(text) }
  }
}

export const ibanKey = (value: string) => compactUpper(value)
