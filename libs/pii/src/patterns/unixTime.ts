/**
 * Integer columns of Unix times (seconds, milliseconds or microseconds since 1970): 9- to 16-digit integers that
 * look like ids to a checksum (a tenth of any 10-digit numbers pass the NPI's Luhn check, 9-digit ones the SSN's
 * ranges), so the scan must know them to leave them alone.
 */
const units = [
  { digits: [9, 10], perSecond: 1 },
  { digits: [12, 13], perSecond: 1_000 },
  { digits: [15, 16], perSecond: 1_000_000 }
] as const

/** From 1973-03-03 (the first 9-digit second) to 20 years after now: times a table of events can hold. */
const earliestSecond = 100_000_000
const yearSeconds = 31_556_952
const futureYears = 20
/** A column of times spans less than this without a name saying so; ids spread evenly over decades. */
const maxUnnamedSpanYears = 10
const requiredShare = 0.9

const secondsOf = (value: string, nowSeconds: number): number | undefined => {
  if (!/^\d{9,16}$/.test(value)) return undefined
  const unit = units.find((candidate) => (candidate.digits as ReadonlyArray<number>).includes(value.length))
  if (unit === undefined) return undefined
  const seconds = Number(value) / unit.perSecond
  return seconds >= earliestSecond && seconds <= nowSeconds + futureYears * yearSeconds ? seconds : undefined
}

/**
 * Whether the values read as Unix times: at least 90 % of them in the plausible range of one unit, and either the
 * column's name says time (`ts`, `epoch`, `created`...) or the middle 90 % of the times span at most 10 years (an
 * event log's times cluster; NPIs, SSNs and account numbers spread over their whole range).
 */
export const readsAsUnixTimes = (values: ReadonlyArray<string>, nameSaysTime: boolean, now: Date = new Date()): boolean => {
  if (values.length === 0) return false
  const nowSeconds = now.getTime() / 1000
  const times: Array<number> = []
  for (const value of values) {
    const seconds = secondsOf(value, nowSeconds)
    if (seconds !== undefined) times.push(seconds)
  }
  if (times.length < requiredShare * values.length) return false
  if (nameSaysTime) return true
  times.sort((a, b) => a - b)
  const low = times[Math.floor(times.length * 0.05)]!
  const high = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]!
  return high - low <= maxUnnamedSpanYears * yearSeconds
}

/** Words of a column name that say it holds times (checked against the name's words, see context/). */
export const timeNameWords: ReadonlySet<string> = new Set([
  "time", "timestamp", "ts", "epoch", "unix", "millis", "ms", "created", "updated", "modified", "at", "when", "date",
  "datetime", "logged", "seen", "occurred", "sent", "received", "expires", "expiry", "zeit", "zeitstempel", "heure",
  "horodatage", "fecha", "hora", "tempo", "data", "tijd", "tijdstip"
])
