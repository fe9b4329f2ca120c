/** Ages a date of birth can give: born at most 120 years ago and not in the future. */
const oldestAge = 120

const parsers: ReadonlyArray<{ readonly pattern: RegExp; readonly order: "ymd" | "mdy" | "dmy" }> = [
  { pattern: /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T00:00:00(?:\.000)?Z?)?$/, order: "ymd" },
  { pattern: /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/, order: "ymd" },
  { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: "mdy" },
  { pattern: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: "dmy" },
  { pattern: /^(\d{1,2})-(\d{1,2})-(\d{4})$/, order: "dmy" }
]

const validDate = (year: number, month: number, day: number) => {
  if (month < 1 || month > 12 || day < 1) return false
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/**
 * A calendar date a living person could be born on (ISO, US `MM/DD/YYYY`, European `DD.MM.YYYY` / `DD/MM/YYYY`).
 * Any date column passes this: only the column's name (or the AI layer) makes it a date of birth.
 */
export const isPlausibleBirthDate = (value: string, now: Date = new Date()): boolean => {
  const thisYear = now.getUTCFullYear()
  for (const { order, pattern } of parsers) {
    const match = pattern.exec(value)
    if (match === null) continue
    const [a, b, c] = [Number(match[1]), Number(match[2]), Number(match[3])]
    const candidates =
      order === "ymd" ? [[a, b, c]] : order === "dmy" ? [[c, b, a]] : [[c, a, b], [c, b, a]]
    return candidates.some(([year, month, day]) => {
      if (year! < thisYear - oldestAge || !validDate(year!, month!, day!)) return false
      return Date.UTC(year!, month! - 1, day!) <= now.getTime()
    })
  }
  return false
}
