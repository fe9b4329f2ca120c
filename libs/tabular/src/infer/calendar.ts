/** Proleptic Gregorian arithmetic on plain numbers: `Date.UTC` maps years 0–99 to 1900–1999, so it is not used. */

const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

const monthLengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

export const isCalendarDate = (year: number, month: number, day: number): boolean =>
  month >= 1 &&
  month <= 12 &&
  day >= 1 &&
  day <= (month === 2 && isLeapYear(year) ? 29 : (monthLengths[month - 1] ?? 0))

/** Days since 1970-01-01 (H. Hinnant's days_from_civil). */
export const daysSinceEpoch = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

export const millisecondsPerDay = 86_400_000
