import type { ColumnType, SynthColumn } from "@synth/synth"

const millisecondsPerDay = 86_400_000

/** A value as the dataset's CSV shows it: whole numbers in plain decimal, dates YYYY-MM-DD, datetimes ISO 8601 (UTC). */
const textOfNumber = (type: "integer" | "float" | "date" | "datetime", value: number): string => {
  switch (type) {
    case "date":
      return new Date(value * millisecondsPerDay).toISOString().slice(0, 10)
    case "datetime":
      return new Date(value).toISOString()
    default:
      return String(value)
  }
}

/** Every value of a column as text, null where missing. */
export const columnText = (column: SynthColumn): Array<string | null> => {
  if (column.kind === "categorical") return Array.from(column.codes, (code) => (code < 0 ? null : column.categories[code]!))
  return Array.from(column.values, (value, row) => (column.missing?.[row] === 1 ? null : textOfNumber(column.type, value)))
}

const numberOfText = (type: "integer" | "float" | "date" | "datetime", text: string): number => {
  switch (type) {
    case "date":
      return Math.round(Date.parse(`${text.slice(0, 10)}T00:00:00Z`) / millisecondsPerDay)
    case "datetime":
      return Date.parse(text)
    default:
      return Number(text)
  }
}

/** A column of the given type from text values (null: missing), as ingestion would have typed them. */
export const columnFromText = (name: string, type: ColumnType, texts: ReadonlyArray<string | null>): SynthColumn => {
  if (type === "string" || type === "boolean") {
    const dictionary = new Map<string, number>()
    const categories: Array<string> = []
    const codes = Int32Array.from(texts, (text) => {
      if (text === null) return -1
      let code = dictionary.get(text)
      if (code === undefined) {
        code = categories.length
        dictionary.set(text, code)
        categories.push(text)
      }
      return code
    })
    return type === "boolean"
      ? { kind: "categorical", name, type, categories: ["false", "true"], codes: Int32Array.from(texts, (text) => (text === null ? -1 : text === "true" ? 1 : 0)) }
      : { kind: "categorical", name, type, categories, codes }
  }
  const missing = Uint8Array.from(texts, (text) => (text === null ? 1 : 0))
  const values = Float64Array.from(texts, (text) => (text === null ? 0 : numberOfText(type, text)))
  return { kind: "continuous", name, type, values, missing: missing.includes(1) ? missing : null, sourceFormat: null }
}
