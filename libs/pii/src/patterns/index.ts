export {
  abaRoutingValid,
  brazilianCpfValid,
  canadianSinValid,
  luhnValid,
  nhsNumberValid,
  ninoValid,
  npiValid,
  spanishIdValid,
  ssnPartsValid
} from "./checksums.ts"
export { isCreditCardNumber } from "./creditCard.ts"
export { bech32Charset, bech32Polymod, isCryptoWalletAddress } from "./crypto.ts"
export { isPlausibleBirthDate } from "./dateOfBirth.ts"
export { patternDetectors } from "./detectors.ts"
export { isBarePhoneNumber, isPhoneNumber, nationalRegions } from "./phone.ts"
export { isStreetAddress } from "./streetAddress.ts"
export { readsAsUnixTimes } from "./unixTime.ts"
