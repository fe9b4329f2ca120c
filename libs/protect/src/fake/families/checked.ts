import {
  abaRoutingNumber,
  abaRoutingValid,
  brazilianCpf,
  brazilianCpfValid,
  canadianSin,
  canadianSinValid,
  isCreditCardNumber,
  nhsNumber,
  nhsNumberValid,
  nino,
  ninoValid,
  npiNumber,
  npiValid,
  spanishDni,
  spanishIdValid,
  ssn,
  ssnPartsValid
} from "@synth/pii"
import type { Draws } from "../draws.ts"
import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { CheckedFormat, CheckedScheme, FakeGenerator } from "../FakePlan.ts"
import { compactUpper, maskOf, maskWriter, placeholdersOf } from "../masks.ts"
import { heldMix, heldPrefixes, type Held, orDefault } from "../mix.ts"

/**
 * Values with a check digit or a fixed structure (SSN, NHS, SIN, NPI, ABA, NINO, CPF, DNI/NIE, cards, ICD-10, ZIP):
 * a scheme draws the characters, valid for its check with the pii library's generators, and the column's own masks
 * lay them out, so `123-45-6789` stays dashed and `943 476 5919` spaced.
 */
interface Scheme {
  /** Whether a real value's characters (letters and digits, upper case) are of this scheme. */
  readonly fits: (compact: string) => boolean
  /** The placeholder kinds (`#`, `A`) the scheme fills, for a mask of the value's length where it varies. */
  readonly accepts: (kinds: string) => boolean
  /** Characters for the placeholders `kinds` (as `accepts` allowed), starting with `prefix`. */
  readonly make: (draws: Draws, kinds: string, prefix: string) => string
  /** How the type is written when nothing was learned: a layout its detector accepts. */
  readonly defaultMask: string
  /** Leading characters worth keeping when ≥ k rows share them, longest first (a card's bank, a ZIP's area). */
  readonly prefixLengths: ReadonlyArray<number>
}

const digitsOnly = (kinds: string) => /^#+$/.test(kinds)
const exactly = (pattern: string) => (kinds: string) => kinds.replace(/a/g, "A") === pattern

/** The Luhn check digit of a partial number. */
const luhnDigit = (partial: string) => {
  let sum = 0
  let double = true
  for (let index = partial.length - 1; index >= 0; index--) {
    let digit = partial.charCodeAt(index) - 48
    if (double) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
    double = !double
  }
  return String((10 - (sum % 10)) % 10)
}

/** Issuer ranges by card length (ISO/IEC 7812 as the networks publish them), for columns whose banks were not learned. */
const issuerPrefixes: Record<number, ReadonlyArray<string>> = {
  12: ["50", "56", "57", "58"],
  13: ["4"],
  14: ["36", "38"],
  15: ["34", "37"],
  16: ["4", "4", "4", "51", "52", "53", "54", "55", "6011", "65", "3528"],
  17: ["6011", "65"],
  18: ["6011", "65"],
  19: ["4", "6011"]
}

const cardNumber = (draws: Draws, length: number, prefix: string) => {
  const start = prefix !== "" ? prefix : draws.pick(issuerPrefixes[length] ?? ["4"])
  const partial = start + draws.digits(Math.max(0, length - 1 - start.length))
  return partial + luhnDigit(partial)
}

const nie = (draws: Draws) => {
  const lead = draws.integer(0, 2)
  const digits = draws.digits(7)
  return "XYZ"[lead]! + digits + "TRWAGMYFPDXBNJZSQVHLCKE"[Number(`${lead}${digits}`) % 23]!
}

const icd10Letters = "ABCDEFGHIJKLMNOPQRSTVWXYZ"

/** ICD-10-shaped codes: a chapter letter (no U), two digits or a digit and A/B, then the mask's extension. */
const icd10 = (draws: Draws, kinds: string) => {
  let code = draws.character(icd10Letters)
  for (let index = 1; index < kinds.length; index++) {
    const kind = kinds[index]!
    if (kind === "#") code += draws.character("0123456789")
    else code += index === 2 ? draws.character("AB") : draws.character(icd10Letters)
  }
  return code
}

const schemes: Record<CheckedScheme, Scheme> = {
  ssn: {
    fits: (compact) => /^\d{9}$/.test(compact) && ssnPartsValid(compact.slice(0, 3), compact.slice(3, 5), compact.slice(5)),
    accepts: exactly("#########"),
    make: (draws) => ssn(draws, false),
    defaultMask: "###-##-####",
    prefixLengths: []
  },
  nhs: {
    fits: nhsNumberValid,
    accepts: exactly("##########"),
    make: (draws) => nhsNumber(draws).replace(/\D/g, ""),
    defaultMask: "### ### ####",
    prefixLengths: []
  },
  sin: {
    fits: canadianSinValid,
    accepts: exactly("#########"),
    make: (draws) => canadianSin(draws).replace(/\D/g, ""),
    defaultMask: "### ### ###",
    prefixLengths: []
  },
  npi: {
    fits: npiValid,
    accepts: exactly("##########"),
    make: (draws) => npiNumber(draws),
    defaultMask: "##########",
    prefixLengths: []
  },
  aba: {
    fits: abaRoutingValid,
    accepts: exactly("#########"),
    make: (draws, _, prefix) => {
      if (prefix === "") return abaRoutingNumber(draws)
      const partial = prefix + draws.digits(8 - prefix.length)
      const weights = [3, 7, 1, 3, 7, 1, 3, 7]
      const sum = [...partial].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0)
      return partial + String((10 - (sum % 10)) % 10)
    },
    defaultMask: "#########",
    prefixLengths: [2]
  },
  nino: {
    fits: ninoValid,
    accepts: exactly("AA######A"),
    make: (draws) => compactUpper(nino(draws)),
    defaultMask: "AA ## ## ## A",
    prefixLengths: []
  },
  cpf: {
    fits: (compact) => /^\d{11}$/.test(compact) && brazilianCpfValid(compact),
    accepts: exactly("###########"),
    make: (draws) => brazilianCpf(draws).replace(/\D/g, ""),
    defaultMask: "###.###.###-##",
    prefixLengths: []
  },
  dni: {
    fits: (compact) => /^\d{8}[A-Z]$/.test(compact) && spanishIdValid(compact),
    accepts: exactly("########A"),
    make: (draws) => spanishDni(draws),
    defaultMask: "########A",
    prefixLengths: []
  },
  nie: {
    fits: (compact) => /^[XYZ]\d{7}[A-Z]$/.test(compact) && spanishIdValid(compact),
    accepts: exactly("A#######A"),
    make: nie,
    defaultMask: "A#######A",
    prefixLengths: []
  },
  card: {
    fits: (compact) => /^\d{12,19}$/.test(compact) && isCreditCardNumber(compact),
    accepts: (kinds) => digitsOnly(kinds) && kinds.length >= 12 && kinds.length <= 19,
    make: (draws, kinds, prefix) => cardNumber(draws, kinds.length, prefix),
    defaultMask: "#### #### #### ####",
    // The bank (the first six digits) when ≥ k rows share it, else the network (Visa 4, Mastercard 51...).
    prefixLengths: [6, 2, 1]
  },
  icd10: {
    fits: (compact) => /^[A-TV-Z]\d[0-9AB][0-9A-TV-Z]{0,4}$/.test(compact),
    accepts: (kinds) => /^A#[#A][#A]{0,4}$/.test(kinds.replace(/a/g, "A")),
    make: (draws, kinds) => icd10(draws, kinds),
    defaultMask: "A##.#",
    prefixLengths: []
  },
  us_zip: {
    fits: (compact) => /^\d{5}(?:\d{4})?$/.test(compact) && !compact.startsWith("000"),
    accepts: (kinds) => kinds === "#####" || kinds === "#########",
    make: (draws, kinds, prefix) => {
      // 000 is no ZIP area.
      const area = prefix !== "" ? prefix : String(draws.integer(5, 999)).padStart(3, "0")
      return area + draws.digits(kinds.length - area.length)
    },
    defaultMask: "#####",
    prefixLengths: [3]
  }
}

export const schemeFits = (scheme: CheckedScheme, value: string) => schemes[scheme].fits(compactUpper(value))

/** The bare layout (`#########`) of a scheme: how an integer-typed column holds it. */
const bareMask = (scheme: CheckedScheme) => schemes[scheme].defaultMask.replace(/[^#Aa]/g, "")

/**
 * The column's layouts, each with the leading characters its rows share when ≥ k do; values that are not valid for
 * their scheme teach nothing (and are counted with the most common layout).
 */
export const learnChecked = (
  values: ReadonlyArray<string>,
  schemeOf: (value: string) => CheckedScheme | undefined,
  fallback: CheckedScheme,
  context: LearnContext
): Extract<FakeGenerator, { _tag: "checked" }> => {
  const layouts: Array<{ scheme: CheckedScheme; mask: string; compact: string }> = []
  for (const value of values) {
    const scheme = schemeOf(value)
    if (scheme === undefined) continue
    const mask = context.type === "string" ? maskOf(value) : bareMask(scheme)
    if (!schemes[scheme].accepts(placeholdersOf(mask))) continue
    layouts.push({ scheme, mask, compact: compactUpper(value) })
  }
  const byLayout = heldMix(layouts, (layout) => `${layout.scheme}\u0000${layout.mask}`, context.k)
  const formats: Array<Held<CheckedFormat>> = byLayout.flatMap(({ value: layout, rows }) => {
    const members = layouts.filter((other) => other.scheme === layout.scheme && other.mask === layout.mask)
    const withPrefix = heldPrefixes(members.map((member) => member.compact), schemes[layout.scheme].prefixLengths, context.k)
    const prefixed = withPrefix.reduce((sum, entry) => sum + entry.rows, 0)
    const entries: Array<Held<CheckedFormat>> = withPrefix.map((entry) => ({ value: { scheme: layout.scheme, mask: layout.mask, prefix: entry.value }, rows: entry.rows }))
    if (rows > prefixed) entries.push({ value: { scheme: layout.scheme, mask: layout.mask, prefix: "" }, rows: rows - prefixed })
    return entries
  })
  return { _tag: "checked", formats: orDefault(formats, defaultFormat(fallback, context)) }
}

const defaultFormat = (scheme: CheckedScheme, context: Pick<LearnContext, "type">): CheckedFormat => ({
  scheme,
  mask: context.type === "string" ? schemes[scheme].defaultMask : bareMask(scheme),
  prefix: ""
})

export const defaultChecked = (scheme: CheckedScheme, context: Pick<LearnContext, "type">): Extract<FakeGenerator, { _tag: "checked" }> => ({
  _tag: "checked",
  formats: orDefault([], defaultFormat(scheme, context))
})

export const compileChecked = (generator: Extract<FakeGenerator, { _tag: "checked" }>, context: CompileContext): CandidateSource => {
  const compiled = generator.formats.map(({ value: format, rows }) => {
    const scheme = schemes[format.scheme]
    const kinds = placeholdersOf(format.mask)
    const write = maskWriter(format.mask)
    return {
      value: () => {
        const compact = scheme.make(context.draws, kinds, format.prefix)
        // A mask's literals are never letters or digits, so the key is the scheme's characters themselves.
        return { text: write(compact), key: compact.toUpperCase() }
      },
      rows
    }
  })
  const pick = context.draws.weighted(compiled)
  return () => pick()()
}

/** Two writings of one number (dashed, spaced, bare) are the same value. */
export const checkedKey = (value: string) => compactUpper(value)
