import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { DateLayout, FakeGenerator } from "../FakePlan.ts"
import { heldMix, orDefault } from "../mix.ts"

/**
 * Dates (of birth, or any date column that is faked): uniform over whole years between the years of the k-th oldest and
 * the k-th youngest real value, so no one person's extreme date bounds the output, written in the column's layouts.
 */
type DateGenerator = Extract<FakeGenerator, { _tag: "date" }>

interface ParsedDate {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly layout: DateLayout
}

const validDate = (year: number, month: number, day: number) => {
  if (month < 1 || month > 12 || day < 1) return false
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** A date in one of the layouts the scan's birth-date detector reads; `01/02/1990` is US unless the column says not. */
const parseDate = (value: string, dayFirst: boolean): ParsedDate | undefined => {
  const text = value.trim()
  let match = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text)
  if (match !== null) return checked(Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? "iso" : "iso_datetime")
  match = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(text)
  if (match !== null) return checked(Number(match[1]), Number(match[2]), Number(match[3]), "ymd_slash")
  match = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/.exec(text)
  if (match === null) return undefined
  const [a, separator, b, year] = [Number(match[1]), match[2]!, Number(match[3]), Number(match[4])]
  if (separator === ".") return checked(year, b, a, "eu_dot")
  if (separator === "-") return checked(year, b, a, "eu_dash")
  return dayFirst ? checked(year, b, a, "eu_slash") : checked(year, a, b, "us_slash")
}

const checked = (year: number, month: number, day: number, layout: DateLayout): ParsedDate | undefined =>
  validDate(year, month, day) ? { year, month, day, layout } : undefined

/** Whether the column's slashed dates put the day first: some first part above 12. */
const dayFirstColumn = (values: ReadonlyArray<string>) =>
  values.some((value) => {
    const match = /^(\d{1,2})\/\d{1,2}\/\d{4}$/.exec(value.trim())
    return match !== null && Number(match[1]) > 12
  })

/** Birth years when nothing was learned: ages of about 20 to 85 in the 2020s. */
const defaultYears = { fromYear: 1940, toYear: 2005 }

export const learnDate = (values: ReadonlyArray<string>, context: LearnContext): DateGenerator => {
  const dayFirst = dayFirstColumn(values)
  const dates = values.map((value) => parseDate(value, dayFirst)).filter((date): date is ParsedDate => date !== undefined)
  const years = dates.map((date) => date.year).sort((a, b) => a - b)
  const rank = Math.max(1, context.k) - 1
  const enough = years.length > 2 * rank
  return {
    _tag: "date",
    fromYear: enough ? years[rank]! : defaultYears.fromYear,
    toYear: enough ? years[years.length - 1 - rank]! : defaultYears.toYear,
    withTime: values.some((value) => /T(?!00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?$)/.test(value.trim())),
    layouts: orDefault(heldMix(dates.map((date) => date.layout), (layout) => layout, context.k), layoutForType(context.type))
  }
}

const layoutForType = (type: LearnContext["type"]): DateLayout => (type === "datetime" ? "iso_datetime" : "iso")

export const defaultDate = (context: Pick<LearnContext, "type">): DateGenerator => ({
  _tag: "date",
  ...defaultYears,
  withTime: context.type === "datetime",
  layouts: orDefault([], layoutForType(context.type))
})

const two = (number: number) => String(number).padStart(2, "0")

const write = (year: number, month: number, day: number, layout: DateLayout, time: string) => {
  switch (layout) {
    case "iso":
      return `${year}-${two(month)}-${two(day)}`
    case "iso_datetime":
      return `${year}-${two(month)}-${two(day)}T${time}Z`
    case "ymd_slash":
      return `${year}/${two(month)}/${two(day)}`
    case "us_slash":
      return `${two(month)}/${two(day)}/${year}`
    case "eu_slash":
      return `${two(day)}/${two(month)}/${year}`
    case "eu_dot":
      return `${two(day)}.${two(month)}.${year}`
    case "eu_dash":
      return `${two(day)}-${two(month)}-${year}`
  }
}

const dayMs = 86_400_000

export const compileDate = (generator: DateGenerator, context: CompileContext): CandidateSource => {
  const start = Date.UTC(generator.fromYear, 0, 1) / dayMs
  const days = Date.UTC(generator.toYear + 1, 0, 1) / dayMs - start
  const pick = context.draws.weighted(generator.layouts)
  return () => {
    const date = new Date((start + context.draws.integer(0, days - 1)) * dayMs)
    const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]
    const layout = pick()
    const time = layout !== "iso_datetime" ? "" : generator.withTime ? new Date(context.draws.integer(0, dayMs - 1)).toISOString().slice(11, 23) : "00:00:00.000"
    const text = write(year, month, day, layout, time)
    return { text, key: layout === "iso_datetime" ? instantKey(text) : `${year}-${two(month)}-${two(day)}` }
  }
}

const instantKey = (text: string) => `@${Date.parse(text.trim())}`

/** The calendar date (a datetime: the instant as written), whatever the layout. */
export const dateKey = (generator: DateGenerator, value: string) => {
  const parsed = parseDate(value, generator.layouts.some((layout) => layout.value === "eu_slash"))
  if (parsed === undefined) return value.trim()
  if (parsed.layout === "iso_datetime") return instantKey(value)
  return `${parsed.year}-${two(parsed.month)}-${two(parsed.day)}`
}
