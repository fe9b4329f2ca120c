import type { CandidateSource, CompileContext } from "./family.ts"
import type { FakeGenerator } from "./FakePlan.ts"
import { addressKey, cityKey, compileAddress, compileCity, compilePostcode, postcodeKey } from "./families/address.ts"
import { checkedKey, compileChecked } from "./families/checked.ts"
import { compileCrypto, cryptoKey } from "./families/crypto.ts"
import { compileDate, dateKey } from "./families/date.ts"
import { compileGeoNumber, compileGeoText, geoNumberKey, geoTextKey } from "./families/geo.ts"
import { compileEmail, compileUsername, emailKey, usernameKey } from "./families/handles.ts"
import { compileIban, ibanKey } from "./families/iban.ts"
import { compileIp, compileMac, ipKey, macKey } from "./families/network.ts"
import { compileBoolean, compileDecimal, decimalKey } from "./families/number.ts"
import { compilePersonName, personNameKey } from "./families/personName.ts"
import { compilePhone, phoneKey } from "./families/phone.ts"
import { compileIntegerKey, compileTemplate, compileUuid, compileWords, integerKey, templateKey, uuidKey, wordsKey } from "./families/template.ts"
import { compileUrl, urlKey } from "./families/url.ts"

/** A generator made ready to draw for one output. */
export const compileGenerator = (generator: FakeGenerator, context: CompileContext): CandidateSource => {
  switch (generator._tag) {
    case "person_name":
      return compilePersonName(generator, context)
    case "email":
      return compileEmail(generator, context)
    case "username":
      return compileUsername(generator, context)
    case "phone":
      return compilePhone(generator, context)
    case "checked":
      return compileChecked(generator, context)
    case "iban":
      return compileIban(generator, context)
    case "template":
      return compileTemplate(generator, context)
    case "integer_key":
      return compileIntegerKey(generator, context)
    case "uuid":
      return compileUuid(generator, context)
    case "words":
      return compileWords(generator, context)
    case "ip":
      return compileIp(generator, context)
    case "mac":
      return compileMac(generator, context)
    case "url":
      return compileUrl(generator, context)
    case "crypto":
      return compileCrypto(generator, context)
    case "street_address":
      return compileAddress(generator, context)
    case "uk_postcode":
      return compilePostcode(generator, context)
    case "city":
      return compileCity(generator, context)
    case "geo_text":
      return compileGeoText(generator, context)
    case "geo_number":
      return compileGeoNumber(generator, context)
    case "date":
      return compileDate(generator, context)
    case "decimal":
      return compileDecimal(generator, context)
    case "boolean":
      return compileBoolean(context)
  }
}

/**
 * The form two writings of one value share (`123-45-6789` and `123456789`, `Smith, John` and `JOHN SMITH`): what the
 * real-value filter holds and what a fake is checked by, so a fake is never a real value written differently.
 * Candidates carry the same key (`Candidate.key`), computed from what the generator drew.
 */
export const generatorKey = (generator: FakeGenerator, value: string): string => {
  switch (generator._tag) {
    case "person_name":
      return personNameKey(value)
    case "email":
      return emailKey(value)
    case "username":
      return usernameKey(value)
    case "phone":
      return phoneKey(generator, value)
    case "checked":
      return checkedKey(value)
    case "iban":
      return ibanKey(value)
    case "template":
      return templateKey(value)
    case "integer_key":
      return integerKey(value)
    case "uuid":
      return uuidKey(value)
    case "words":
      return wordsKey(value)
    case "ip":
      return ipKey(value)
    case "mac":
      return macKey(value)
    case "url":
      return urlKey(value)
    case "crypto":
      return cryptoKey(value)
    case "street_address":
      return addressKey(value)
    case "uk_postcode":
      return postcodeKey(value)
    case "city":
      return cityKey(value)
    case "geo_text":
      return geoTextKey(value)
    case "geo_number":
      return geoNumberKey(value)
    case "date":
      return dateKey(generator, value)
    case "decimal":
      return decimalKey(value)
    case "boolean":
      return value.trim().toLowerCase()
  }
}
