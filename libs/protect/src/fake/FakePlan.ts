import { piiTypes } from "@synth/pii"
import { Schema } from "effect"

/**
 * What the fakes of one column are made from: shapes, formats, locales and their row counts, never a value of the
 * data. Every entry of a mix is held by at least k real rows (the rows of rarer entries are counted with the most
 * common one), so nothing in a plan can single a person out. JSON-serialisable: it is stored with the model.
 */

/** One entry of a learned mix and how many real rows it stands for (its weight when drawing). */
const Weighted = <A, I>(item: Schema.Codec<A, I>) => Schema.Array(Schema.Struct({ value: item, rows: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))) }))

/** A faker locale code (`en`, `de`, `pt_BR`...). */
const LocaleCode = Schema.String

/** A person-name format: placeholders `{first}`, `{middle}`, `{last}`, `{fi}`/`{mi}` (initials), `{prefix}`, `{suffix}`. */
export const NameFormat = Schema.Struct({
  template: Schema.String,
  case: Schema.Literals(["title", "upper", "lower"])
})
export type NameFormat = typeof NameFormat.Type

export const PersonNameGenerator = Schema.TaggedStruct("person_name", {
  locales: Weighted(LocaleCode),
  formats: Weighted(NameFormat)
})

/**
 * E-mail addresses and usernames: local parts (handles) as templates of name parts, words, digits and separators —
 * `{first}.{last}`, `{f}{last}{d2}` (a `{First}`/`{FIRST}` placeholder keeps the case) — in the names' locale mix.
 * `domains` are those held by ≥ k rows; `freeDomainRows` rows had rarer ones and get faker's free e-mail domains.
 */
export const EmailGenerator = Schema.TaggedStruct("email", {
  locales: Weighted(LocaleCode),
  handles: Weighted(Schema.String),
  domains: Schema.Array(Schema.Struct({ value: Schema.String, rows: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))) })),
  freeDomainRows: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
})

export const UsernameGenerator = Schema.TaggedStruct("username", {
  locales: Weighted(LocaleCode),
  handles: Weighted(Schema.String)
})

/**
 * A phone format: the region (ISO 3166), the digits written before the national number (a country code `1`, `44`, or a
 * trunk `0`), the value's layout with every digit as `#` (`+# (###) ###-####`), and the national number's leading
 * digits held by ≥ k rows (an area or mobile prefix; empty when none was).
 */
export const PhoneFormat = Schema.Struct({
  region: Schema.String,
  lead: Schema.String,
  mask: Schema.String,
  prefix: Schema.String
})
export type PhoneFormat = typeof PhoneFormat.Type

export const PhoneGenerator = Schema.TaggedStruct("phone", { formats: Weighted(PhoneFormat) })

/**
 * Values with a check digit or a fixed structure, written into the column's layouts: a scheme makes the characters
 * (valid for its check), the mask lays them out (`#` a digit, `A`/`a` an upper/lower-case letter, anything else
 * written as is). `prefix`: leading characters held by ≥ k rows (a card's issuer range, a ZIP's area), or empty.
 */
export const checkedSchemes = [
  "ssn",
  "nhs",
  "sin",
  "npi",
  "aba",
  "nino",
  "cpf",
  "dni",
  "nie",
  "card",
  "icd10",
  "us_zip"
] as const
export type CheckedScheme = (typeof checkedSchemes)[number]

export const CheckedFormat = Schema.Struct({
  scheme: Schema.Literals(checkedSchemes),
  mask: Schema.String,
  prefix: Schema.String
})
export type CheckedFormat = typeof CheckedFormat.Type

export const CheckedGenerator = Schema.TaggedStruct("checked", { formats: Weighted(CheckedFormat) })

export const IbanFormat = Schema.Struct({ country: Schema.String, grouped: Schema.Boolean, lowerCase: Schema.Boolean })
export type IbanFormat = typeof IbanFormat.Type

export const IbanGenerator = Schema.TaggedStruct("iban", { formats: Weighted(IbanFormat) })

/** One position of a code: a character kept as is (shared by every row of the shape) or drawn from an alphabet. */
export const Slot = Schema.Union([Schema.Struct({ constant: Schema.String }), Schema.Struct({ alphabet: Schema.String })])
export type Slot = typeof Slot.Type

/** Codes (`CUST-000123`, `A7-x93`, passport and licence numbers...): a mix of templates, one slot per position. */
export const TemplateGenerator = Schema.TaggedStruct("template", { shapes: Weighted(Schema.Array(Slot)) })

/** Integer keys: digits only, no leading zero, between `minDigits` and `maxDigits` digits. */
export const IntegerKeyGenerator = Schema.TaggedStruct("integer_key", {
  minDigits: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 16 }))),
  maxDigits: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 16 })))
})

export const UuidGenerator = Schema.TaggedStruct("uuid", { upperCase: Schema.Boolean })

/** Free-text-like values: lorem words, between `minWords` and `maxWords` of them. */
export const WordsGenerator = Schema.TaggedStruct("words", {
  minWords: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  maxWords: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  capitalised: Schema.Boolean
})

/** IP addresses: the version, the leading octets held by ≥ k rows (`10.1`, or empty), IPv6 written compressed or not. */
export const IpFormat = Schema.Struct({ version: Schema.Literals([4, 6]), prefix: Schema.String, compressed: Schema.Boolean, upperCase: Schema.Boolean })
export type IpFormat = typeof IpFormat.Type
export const IpGenerator = Schema.TaggedStruct("ip", { formats: Weighted(IpFormat) })

/** MAC addresses: separator, case, and the vendor prefix (OUI, three bytes) held by ≥ k rows or empty. */
export const MacFormat = Schema.Struct({ separator: Schema.Literals([":", "-", ".", ""]), upperCase: Schema.Boolean, vendor: Schema.String })
export type MacFormat = typeof MacFormat.Type
export const MacGenerator = Schema.TaggedStruct("mac", { formats: Weighted(MacFormat) })

/**
 * URLs: scheme, host (held by ≥ k rows, else null: a faker domain), and path segments — a segment held by ≥ k rows of
 * the host at its position is kept (`in`, `users`), others become a `slug` (words joined by `-`), `digits` or a `word`.
 */
export const PathSegment = Schema.Union([Schema.Struct({ constant: Schema.String }), Schema.Struct({ slug: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))) }), Schema.Struct({ digits: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))) }), Schema.Struct({ word: Schema.Literal(true) })])
export type PathSegment = typeof PathSegment.Type
export const UrlFormat = Schema.Struct({
  scheme: Schema.Literals(["http", "https"]),
  host: Schema.NullOr(Schema.String),
  www: Schema.Boolean,
  path: Schema.Array(PathSegment),
  trailingSlash: Schema.Boolean
})
export type UrlFormat = typeof UrlFormat.Type
export const UrlGenerator = Schema.TaggedStruct("url", { formats: Weighted(UrlFormat) })

export const cryptoChains = ["ethereum", "bitcoin_p2pkh", "bitcoin_p2sh", "bitcoin_segwit"] as const
export type CryptoChain = (typeof cryptoChains)[number]
export const CryptoGenerator = Schema.TaggedStruct("crypto", { formats: Weighted(Schema.Literals(cryptoChains)) })

/**
 * Street addresses by locale: the parts after the street (`street`, `city`, `postcode`, `state`, written in that
 * locale's order), a secondary unit (`Apt. 4`) or not, and the case.
 */
export const AddressFormat = Schema.Struct({
  locale: LocaleCode,
  parts: Schema.Literals([1, 2, 3]),
  secondary: Schema.Boolean,
  upperCase: Schema.Boolean
})
export type AddressFormat = typeof AddressFormat.Type
export const AddressGenerator = Schema.TaggedStruct("street_address", { formats: Weighted(AddressFormat) })

/** UK postcodes: the postcode area (one or two letters) held by ≥ k rows or empty, written with a space or not. */
export const PostcodeFormat = Schema.Struct({ area: Schema.String, spaced: Schema.Boolean, upperCase: Schema.Boolean })
export type PostcodeFormat = typeof PostcodeFormat.Type
export const PostcodeGenerator = Schema.TaggedStruct("uk_postcode", { formats: Weighted(PostcodeFormat) })

/** City names in the column's locale mix (a value's locale: the faker locale whose city list holds it), and case. */
export const CityFormat = Schema.Struct({ locale: LocaleCode, upperCase: Schema.Boolean })
export const CityGenerator = Schema.TaggedStruct("city", { formats: Weighted(CityFormat) })

/**
 * Coordinates as text (`40.71280, -74.00600`): one-degree cells held by ≥ k rows (null: anywhere), the decimals and
 * the separator; or one number (a latitude or a longitude column) drawn in the cells the same way.
 */
export const GeoCell = Schema.NullOr(Schema.Struct({ latitude: Schema.Int, longitude: Schema.Int }))
export const GeoTextGenerator = Schema.TaggedStruct("geo_text", {
  cells: Weighted(GeoCell),
  decimals: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 10 }))),
  separator: Schema.String,
  parentheses: Schema.Boolean
})
export const GeoNumberGenerator = Schema.TaggedStruct("geo_number", {
  axis: Schema.Literals(["latitude", "longitude"]),
  cells: Weighted(Schema.NullOr(Schema.Int)),
  decimals: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 10 })))
})

/**
 * Dates (of birth, or any date column faked): uniform between two years that are coarsened order statistics of rank k
 * (so no single person's extreme shows), written as the column writes them.
 */
export const dateLayouts = ["iso", "iso_datetime", "us_slash", "eu_slash", "eu_dot", "eu_dash", "ymd_slash"] as const
export type DateLayout = (typeof dateLayouts)[number]
export const DateGenerator = Schema.TaggedStruct("date", {
  fromYear: Schema.Int,
  toYear: Schema.Int,
  /** Datetimes get a time of day; false when the real ones were all at midnight (dates kept as datetimes). */
  withTime: Schema.Boolean,
  layouts: Weighted(Schema.Literals(dateLayouts))
})

/** Non-integer numbers of a faked numeric column: uniform between coarsened rank-k bounds, at the column's decimals. */
export const DecimalGenerator = Schema.TaggedStruct("decimal", {
  low: Schema.Number,
  high: Schema.Number,
  decimals: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 10 })))
})

export const BooleanGenerator = Schema.TaggedStruct("boolean", {})

export const FakeGenerator = Schema.Union([PersonNameGenerator, EmailGenerator, UsernameGenerator, PhoneGenerator, CheckedGenerator, IbanGenerator, TemplateGenerator, IntegerKeyGenerator, UuidGenerator, WordsGenerator, IpGenerator, MacGenerator, UrlGenerator, CryptoGenerator, AddressGenerator, PostcodeGenerator, CityGenerator, GeoTextGenerator, GeoNumberGenerator, DateGenerator, DecimalGenerator, BooleanGenerator])
export type FakeGenerator = typeof FakeGenerator.Type

export const FakeKindSchema = Schema.Literals([...piiTypes, "identifier"])

export const FakePlan = Schema.Struct({
  version: Schema.Literal(1),
  /** The column's name: errors name it (never a value). */
  column: Schema.String,
  type: Schema.Literals(["integer", "float", "boolean", "date", "datetime", "string"]),
  kind: FakeKindSchema,
  /** Real rows with a value: sizes the fresh-key space (identifiers) next to the output's rows. 0 when not learned. */
  realRows: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0))),
  /** Share of real rows without a value, reproduced at random positions (0 when not learned). */
  missingRate: Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
  /** Every present real value was distinct (or the type is a key): no fake repeats either. */
  unique: Schema.Boolean,
  /** The real values passed the scan's detector for the kind: every fake must too. */
  detectable: Schema.Boolean,
  /**
   * Integer-typed columns: fakes are digits only, no leading zero, within this digit count range, and safe integers
   * (16 digits fit up to 9,007,199,254,740,991: card numbers do).
   */
  integerDigits: Schema.NullOr(Schema.Struct({ min: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 16 }))), max: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 16 }))) })),
  generator: FakeGenerator
})
export type FakePlan = typeof FakePlan.Type
