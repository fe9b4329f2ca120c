import { nationalRegions } from "@synth/pii"
import libphonenumber from "google-libphonenumber"
import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { FakeGenerator, PhoneFormat } from "../FakePlan.ts"
import { maskOf, maskWriter, placeholderCount } from "../masks.ts"
import { heldMix, heldPrefixes, type Held, orDefault } from "../mix.ts"

/**
 * Phone numbers by region (libphonenumber's metadata): each real number's region, the digits written before its
 * national number (country code or trunk 0), its layout and its area or mobile prefix when ≥ k rows share it. A fake
 * is a number libphonenumber validates for the region, written in the same layout.
 */
type PhoneGenerator = Extract<FakeGenerator, { _tag: "phone" }>

// A CommonJS module: its named exports exist only on the default export under ESM (Node, Deno).
const phones = libphonenumber.PhoneNumberUtil.getInstance()
const { PhoneNumberType } = libphonenumber

interface ParsedPhone {
  readonly region: string
  readonly countryCode: number
  readonly national: string
}

const parsedIn = (text: string, region: string | undefined): ParsedPhone | undefined => {
  try {
    const number = phones.parseAndKeepRawInput(text, region)
    if (!phones.isValidNumber(number)) return undefined
    const numberRegion = phones.getRegionCodeForNumber(number)
    if (numberRegion === undefined || numberRegion === null) return undefined
    return { region: numberRegion, countryCode: number.getCountryCode()!, national: phones.getNationalSignificantNumber(number) }
  } catch {
    return undefined
  }
}

/**
 * A real number's region and national number: with `+` or `00` by its country code; digits alone (an integer column)
 * as E.164 without its `+`; otherwise in the first of the scan's regions that validates it.
 */
const parsePhone = (value: string, regions: ReadonlyArray<string> = nationalRegions): ParsedPhone | undefined => {
  const text = value.trim()
  if (text.startsWith("+")) return parsedIn(text, undefined)
  if (text.startsWith("00")) return parsedIn(`+${text.slice(2)}`, undefined)
  if (/^\d{9,15}$/.test(text)) {
    const international = parsedIn(`+${text}`, undefined)
    if (international !== undefined) return international
  }
  for (const region of regions) {
    const parsed = parsedIn(text, region)
    if (parsed !== undefined) return parsed
  }
  return undefined
}

const prefixLengths = [3, 2]

export const learnPhone = (values: ReadonlyArray<string>, context: LearnContext): PhoneGenerator => {
  const shaped: Array<{ format: PhoneFormat; national: string }> = []
  for (const value of values) {
    const parsed = parsePhone(value)
    if (parsed === undefined) continue
    const digits = value.replace(/\D/g, "")
    if (!digits.endsWith(parsed.national) || /[A-Za-z]/.test(value)) continue
    shaped.push({ format: { region: parsed.region, lead: digits.slice(0, digits.length - parsed.national.length), mask: maskOf(value.trim()), prefix: "" }, national: parsed.national })
  }
  const layouts = heldMix(shaped, ({ format }) => `${format.region}|${format.lead}|${format.mask}`, context.k)
  const formats: Array<Held<PhoneFormat>> = layouts.flatMap(({ value: { format }, rows }) => {
    const members = shaped.filter((other) => other.format.region === format.region && other.format.lead === format.lead && other.format.mask === format.mask)
    const entries: Array<Held<PhoneFormat>> = heldPrefixes(members.map((member) => member.national), prefixLengths, context.k).map(({ value: prefix, rows: count }) => ({
      value: { ...format, prefix },
      rows: count
    }))
    const prefixed = entries.reduce((sum, entry) => sum + entry.rows, 0)
    if (rows > prefixed) entries.push({ value: format, rows: rows - prefixed })
    return entries
  })
  return { _tag: "phone", formats: orDefault(formats, defaultFormat(context)) }
}

const defaultFormat = (context: Pick<LearnContext, "type">): PhoneFormat =>
  context.type === "string" ? { region: "US", lead: "1", mask: "+# ###-###-####", prefix: "" } : { region: "US", lead: "1", mask: "###########", prefix: "" }

export const defaultPhone = (context: Pick<LearnContext, "type">): PhoneGenerator => ({ _tag: "phone", formats: orDefault([], defaultFormat(context)) })

const personalTypes = [PhoneNumberType.MOBILE, PhoneNumberType.FIXED_LINE, PhoneNumberType.FIXED_LINE_OR_MOBILE]

/** The region's example numbers (mobile, fixed line) of the wanted length. */
const examples = (region: string, length: number): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const type of personalTypes) {
    const example = phones.getExampleNumberForType(region, type)
    if (example === null || example === undefined) continue
    const national = phones.getNationalSignificantNumber(example)
    if (national.length === length) found.push(national)
  }
  return found
}

/** Draws until the number is in the region's plan; the caller's detector check redraws the rare ones that are not. */
const attemptsPerNumber = 20

export const compilePhone = (generator: PhoneGenerator, context: CompileContext): CandidateSource => {
  const sources = generator.formats.map(({ value: format, rows }) => {
    const length = placeholderCount(format.mask) - format.lead.length
    const countryCode = phones.getCountryCodeForRegion(format.region)
    const write = maskWriter(format.mask)
    const number = new libphonenumber.PhoneNumber()
    number.setCountryCode(countryCode)
    const draw = (starts: ReadonlyArray<string>): { national: string; valid: boolean } => {
      const start = starts.length > 0 ? context.draws.pick(starts) : String(context.draws.integer(1, 9))
      const national = start + context.draws.digits(Math.max(0, length - start.length))
      // Numbers with a leading zero in the national number (Italy's fixed lines) keep it as a flag, not as digits.
      const leadingZeros = /^0+/.exec(national)?.[0].length ?? 0
      number.setItalianLeadingZero(leadingZeros > 0)
      number.setNumberOfLeadingZeros(Math.max(1, leadingZeros))
      number.setNationalNumber(Number(national))
      return { national, valid: phones.isValidNumberForRegion(number, format.region) }
    }
    // Without the column's own prefix, numbers start like the region's examples: by their first two digits where a
    // quarter of such draws are valid, else by more (Brazil, Canada), so draws spread over the plan yet mostly fall in.
    const starts = (() => {
      if (format.prefix !== "") return [format.prefix]
      const known = examples(format.region, length)
      for (const digits of [2, 3]) {
        const candidates = known.map((national) => national.slice(0, digits))
        const valid = Array.from({ length: 40 }, () => draw(candidates).valid).filter(Boolean).length
        if (valid >= 10) return candidates
      }
      return known.map((national) => national.slice(0, Math.max(1, length - 5)))
    })()
    return {
      value: () => {
        let national = ""
        for (let attempt = 0; attempt < attemptsPerNumber; attempt++) {
          const drawn = draw(starts)
          national = drawn.national
          if (drawn.valid) break
        }
        return { national, write, lead: format.lead, countryCode }
      },
      rows
    }
  })
  const pick = context.draws.weighted(sources)
  return () => {
    const { national, write, lead, countryCode } = pick()()
    return { text: write(lead + national), key: `+${countryCode}${national}` }
  }
}

/** E.164 (`+14155550123`): one number however it is written; a number no region validates is its digits. */
export const phoneKey = (generator: PhoneGenerator, value: string) => {
  const regions = [...new Set([...generator.formats.map((format) => format.value.region), ...nationalRegions])]
  const parsed = parsePhone(value, regions)
  return parsed === undefined ? `digits:${value.replace(/\D/g, "")}` : `+${parsed.countryCode}${parsed.national}`
}
