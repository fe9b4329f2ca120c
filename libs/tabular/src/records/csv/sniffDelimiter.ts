export const CSV_DELIMITERS = [",", "\t", ";", "|"] as const
export type CsvDelimiter = typeof CSV_DELIMITERS[number]

/** Enough lines to see the shape of a file; more only cost time. */
const MAX_SAMPLED_LINES = 200

const QUOTE = 0x22
const LF = 0x0a
const CR = 0x0d

/**
 * The delimiter that splits every sampled line (outside quotes) into the same number of fields, more than one; the
 * one with the most fields when several do (a tab-separated file whose text has a comma in every row), comma on a
 * tie, and comma when none does (single-column files; ragged files then fail with a message naming the line).
 * `sample` is the start of the text; `complete` says whether it is the whole text (else its last line is cut off).
 */
export const sniffDelimiter = (sample: string, complete: boolean): CsvDelimiter => {
  const counts = countsPerLine(sample, complete)
  let best: CsvDelimiter = ","
  let bestFields = 1
  CSV_DELIMITERS.forEach((delimiter, d) => {
    const first = counts[0]?.[d] ?? 0
    if (first === 0 || !counts.every((line) => line[d] === first)) return
    if (first + 1 > bestFields) {
      best = delimiter
      bestFields = first + 1
    }
  })
  return best
}

/** For each non-blank line (quoted newlines do not end one), how often each candidate occurs outside quotes. */
const countsPerLine = (sample: string, complete: boolean): Array<Array<number>> => {
  const codes = CSV_DELIMITERS.map((delimiter) => delimiter.charCodeAt(0))
  const lines: Array<Array<number>> = []
  let current = [0, 0, 0, 0]
  let lineHasText = false
  let inQuotes = false
  for (let i = 0; i < sample.length && lines.length < MAX_SAMPLED_LINES; i++) {
    const code = sample.charCodeAt(i)
    if (code === QUOTE) inQuotes = !inQuotes
    if (inQuotes) {
      lineHasText = true
      continue
    }
    if (code === LF) {
      if (lineHasText) lines.push(current)
      current = [0, 0, 0, 0]
      lineHasText = false
      continue
    }
    if (code === CR || code === 0x20) continue
    lineHasText = true
    const d = codes.indexOf(code)
    if (d >= 0) current[d]!++
  }
  if (complete && lineHasText && !inQuotes) lines.push(current)
  return lines
}
