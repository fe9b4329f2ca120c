/**
 * Check-digit algorithms no maintained npm package ships on its own (validator covers Luhn only inside its credit
 * card check, and IBAN inside isIBAN): each is a few lines, written from the published specification.
 */

const digitsOnly = (value: string) => value.replace(/[\s-]/g, "")

/** Luhn (ISO/IEC 7812): cards, Canadian SINs, and NPIs behind the 80840 prefix. */
export const luhnValid = (digits: string): boolean => {
  if (!/^\d+$/.test(digits)) return false
  let sum = 0
  let double = false
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48
    if (double) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
    double = !double
  }
  return sum % 10 === 0
}

/** NHS number: 10 digits, weights 10..2 on the first nine, check digit 11 − (sum mod 11); 10 is never issued. */
export const nhsNumberValid = (value: string): boolean => {
  const digits = digitsOnly(value)
  if (!/^\d{10}$/.test(digits)) return false
  let sum = 0
  for (let index = 0; index < 9; index++) sum += (digits.charCodeAt(index) - 48) * (10 - index)
  const check = 11 - (sum % 11)
  if (check === 10) return false
  return (check === 11 ? 0 : check) === digits.charCodeAt(9) - 48
}

/** ABA routing number: weights 3, 7, 1 repeated, sum divisible by 10; the first two digits in the Fed's ranges. */
export const abaRoutingValid = (value: string): boolean => {
  if (!/^\d{9}$/.test(value)) return false
  const prefix = Number(value.slice(0, 2))
  const inRange = prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80
  if (!inRange) return false
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1]
  let sum = 0
  for (let index = 0; index < 9; index++) sum += (value.charCodeAt(index) - 48) * weights[index]!
  return sum % 10 === 0 && value !== "000000000"
}

/** NPI: 10 digits starting 1 or 2, Luhn over "80840" + the number (the ISO prefix for US health identifiers). */
export const npiValid = (value: string): boolean => /^[12]\d{9}$/.test(value) && luhnValid(`80840${value}`)

/** Canadian SIN: 9 digits, Luhn; 0 and 8 are not issued as first digits. */
export const canadianSinValid = (value: string): boolean => {
  const digits = digitsOnly(value)
  return /^[1-79]\d{8}$/.test(digits) && luhnValid(digits)
}

/** US SSN ranges never issued: area 000, 666 and 900–999, group 00, serial 0000. */
export const ssnPartsValid = (area: string, group: string, serial: string): boolean =>
  area !== "000" && area !== "666" && area[0] !== "9" && group !== "00" && serial !== "0000"

/** UK National Insurance number: two prefix letters with HMRC's exclusions, six digits, suffix A–D. */
export const ninoValid = (value: string): boolean => {
  const compact = value.replace(/\s/g, "").toUpperCase()
  const match = /^([A-CEGHJ-PR-TW-Z])([A-CEGHJ-NPR-TW-Z])(\d{6})([A-D])$/.exec(compact)
  if (match === null) return false
  const prefix = match[1]! + match[2]!
  return !["BG", "GB", "NK", "KN", "TN", "NT", "ZZ"].includes(prefix)
}

/** Spanish DNI (8 digits and the letter of their remainder mod 23) and NIE (X/Y/Z standing for 0/1/2). */
export const spanishIdValid = (value: string): boolean => {
  const match = /^([XYZ]|\d)(\d{7})-?([A-Z])$/i.exec(value.trim())
  if (match === null) return false
  const lead = { X: "0", Y: "1", Z: "2" }[match[1]!.toUpperCase()] ?? match[1]!
  return "TRWAGMYFPDXBNJZSQVHLCKE"[Number(lead + match[2]!) % 23] === match[3]!.toUpperCase()
}

/** Brazilian CPF: 11 digits (000.000.000-00), two mod-11 check digits; all-equal digits are not issued. */
export const brazilianCpfValid = (value: string): boolean => {
  if (!/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(value)) return false
  const digits = [...value.replace(/\D/g, "")].map(Number)
  if (digits.every((digit) => digit === digits[0])) return false
  const check = (count: number) => {
    const sum = digits.slice(0, count).reduce((total, digit, index) => total + digit * (count + 1 - index), 0)
    const rest = (sum * 10) % 11
    return rest === 10 ? 0 : rest
  }
  return check(9) === digits[9] && check(10) === digits[10]
}

export { digitsOnly }
