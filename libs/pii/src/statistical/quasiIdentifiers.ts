import { nameHint, nameWords } from "../context/columnName.ts"
import type { ColumnSample } from "../types.ts"
import type { ColumnStatistics } from "./uniqueness.ts"

export interface QuasiIdentifierSet {
  readonly columns: ReadonlyArray<string>
  /** The smallest number of sampled rows sharing one combination of these columns' values. */
  readonly k_anonymity: number
  /** Share of sampled rows whose combination no other sampled row has. */
  readonly unique_share: number
}

/** Attributes that identify people in combination (Sweeney: ZIP + birth date + sex single out 87 % of Americans). */
const demographicWords = new Set([
  "age", "gender", "sex", "geschlecht", "sexe", "genero", "sesso", "geslacht", "sexo", "race", "ethnicity",
  "ethnic", "nationality", "citizenship", "religion", "marital", "married", "occupation", "job", "profession",
  "employer", "education", "city", "town", "county", "birth", "born", "dob", "zip", "postcode", "plz", "height",
  "weight", "alter", "edad", "eta", "leeftijd", "idade", "beruf", "ville", "ciudad"
])

const isDemographic = (column: ColumnSample, found: ReadonlySet<string>) => {
  if (found.has(column.name)) return true
  const hint = nameHint(column.name)
  if (hint?.types.some((type) => type === "date_of_birth" || type === "us_zip_code" || type === "uk_postcode" || type === "city")) return true
  return nameWords(column.name).some((word) => demographicWords.has(word))
}

export interface QuasiIdentifierOptions {
  /** Combinations whose smallest class is below this are reported (k-anonymity's usual k = 5). */
  readonly kThreshold: number
  readonly maxCandidates: number
  readonly maxSetSize: number
  readonly maxReported: number
}

export const defaultQuasiIdentifierOptions: QuasiIdentifierOptions = { kThreshold: 5, maxCandidates: 10, maxSetSize: 3, maxReported: 5 }

/** Per column, a small integer per distinct value (missing is a value of its own: it groups rows too). */
const codesOf = (column: ColumnSample) => {
  const codes = new Map<string | null, number>()
  const row = new Int32Array(column.values.length)
  column.values.forEach((value, index) => {
    let code = codes.get(value)
    if (code === undefined) {
      code = codes.size
      codes.set(value, code)
    }
    row[index] = code
  })
  return { codes: row, cardinality: codes.size }
}

const combinations = (size: number, count: number): Array<Array<number>> => {
  if (size === 0) return [[]]
  const result: Array<Array<number>> = []
  const walk = (start: number, chosen: Array<number>) => {
    if (chosen.length === size) return void result.push([...chosen])
    for (let index = start; index < count; index++) walk(index + 1, [...chosen, index])
  }
  walk(0, [])
  return result
}

/**
 * Small sets of columns that together single out people though none is an identifier alone. Candidates: columns
 * whose names say demographics (age, sex, ZIP, birth date, city, job...) or that the scan found to hold a birth
 * date, postcode or city, plus the other low-to-mid-cardinality
 * columns (2 to 200 values), at most `maxCandidates`; every set has at least one demographic column, so a table of
 * products or measurements (diamonds) yields none. Sets of 1 to `maxSetSize` columns are measured on the sample:
 * k = the smallest class, and only minimal sets (no reported subset) below `kThreshold` are kept.
 *
 * On a sample k is conservative: a class of k sampled rows stands for about k × (rows / sampled) rows of the whole
 * table, so a row unique in the sample is often not unique in the table (the risk is over-stated, never hidden).
 * When every row is scanned (tables up to PII_SAMPLE_ROWS) the numbers are exact.
 */
export const quasiIdentifiers = (
  columns: ReadonlyArray<ColumnSample>,
  statistics: ReadonlyMap<string, ColumnStatistics>,
  identifiers: ReadonlySet<string>,
  options: QuasiIdentifierOptions = defaultQuasiIdentifierOptions,
  /** Columns the scan found to hold a birth date, postcode or city by their values, whatever their names. */
  demographicByValues: ReadonlySet<string> = new Set()
): ReadonlyArray<QuasiIdentifierSet> => {
  const rows = columns[0]?.values.length ?? 0
  if (rows < 2) return []
  const usable = columns.filter((column) => !identifiers.has(column.name))
  const demographic = usable.filter((column) => isDemographic(column, demographicByValues))
  if (demographic.length === 0) return []
  const moderate = usable
    .filter((column) => !demographic.includes(column) && column.kind !== "float" && column.kind !== "datetime")
    .filter((column) => {
      const distinct = statistics.get(column.name)?.distinct ?? 0
      return distinct >= 2 && distinct <= 200
    })
  const candidates = [...demographic, ...moderate].slice(0, options.maxCandidates)
  const demographicCount = Math.min(demographic.length, candidates.length)
  const coded = candidates.map(codesOf)

  const reported: Array<{ members: ReadonlyArray<number>; set: QuasiIdentifierSet }> = []
  for (let size = 1; size <= options.maxSetSize; size++) {
    for (const members of combinations(size, candidates.length)) {
      if (!members.some((member) => member < demographicCount)) continue
      if (reported.some(({ members: subset }) => subset.every((member) => members.includes(member)))) continue
      const classes = new Map<number, number>()
      const keys = new Float64Array(rows)
      for (let row = 0; row < rows; row++) {
        let key = 0
        for (const member of members) key = key * coded[member]!.cardinality + coded[member]!.codes[row]!
        keys[row] = key
        classes.set(key, (classes.get(key) ?? 0) + 1)
      }
      let smallest = Infinity
      let unique = 0
      for (const count of classes.values()) {
        smallest = Math.min(smallest, count)
        if (count === 1) unique++
      }
      if (smallest >= options.kThreshold) continue
      reported.push({
        members,
        set: { columns: members.map((member) => candidates[member]!.name), k_anonymity: smallest, unique_share: unique / rows }
      })
    }
  }
  return reported
    .map(({ set }) => set)
    .sort((a, b) => b.unique_share - a.unique_share || a.columns.length - b.columns.length)
    .slice(0, options.maxReported)
}
