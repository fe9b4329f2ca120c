import type { ColumnSample, PiiType } from "../types.ts"
import { nameHint, nameWords } from "./columnName.ts"

const latitudeWords = new Set(["lat", "latitude", "breitengrad", "latitud", "latitudine", "breedtegraad"])
const longitudeWords = new Set(["lng", "lon", "long", "longitude", "langengrad", "laengengrad", "longitud", "longitudine", "lengtegraad"])

/** Names of columns holding a country, state, region or province: a city column often stands beside them. */
const regionWords = new Set([
  "country", "state", "province", "region", "county", "land", "bundesland", "kanton", "pays", "departement", "pais",
  "estado", "provincia", "regione", "paese", "provincie", "staat", "uf"
])

const numbersIn = (column: ColumnSample) =>
  column.values.filter((value): value is string => value !== null).map(Number).filter(Number.isFinite)

const within = (column: ColumnSample, limit: number) => {
  const numbers = numbersIn(column)
  return numbers.length > 0 && numbers.every((value) => Math.abs(value) <= limit) && numbers.some((value) => !Number.isInteger(value))
}

/**
 * Columns that are personal data only as a pair: a numeric latitude column next to a longitude column (names say
 * which, values in ±90 / ±180 with decimals) locate a person together.
 */
export const coordinatePairs = (columns: ReadonlyArray<ColumnSample>): ReadonlyArray<readonly [string, string]> => {
  const numeric = columns.filter((column) => column.kind === "float")
  const hasWord = (column: ColumnSample, words: ReadonlySet<string>) => nameWords(column.name).some((word) => words.has(word))
  const latitudes = numeric.filter((column) => hasWord(column, latitudeWords) && within(column, 90))
  const longitudes = numeric.filter((column) => hasWord(column, longitudeWords) && within(column, 180))
  return latitudes.flatMap((latitude) => longitudes.slice(0, 1).map((longitude) => [latitude.name, longitude.name] as const))
}

/**
 * Types the neighbours of a column make more likely: a name-like column next to other name columns (first + last),
 * an address next to city / postcode columns, a city next to a postcode, country or state column. Returns, per
 * column name, the types its neighbours support; the scan still checks that the values fit (context only supports).
 */
export const neighbourSupport = (columns: ReadonlyArray<ColumnSample>): ReadonlyMap<string, ReadonlySet<PiiType>> => {
  const hinted = columns.map((column) => ({ column, hint: nameHint(column.name) }))
  const present = new Set(hinted.flatMap(({ hint }) => hint?.types ?? []))
  const postcodeNamed = present.has("us_zip_code") || present.has("uk_postcode")
  const regionNamed = columns.some((column) => nameWords(column.name).some((word) => regionWords.has(word)))
  const support = new Map<string, Set<PiiType>>()
  const add = (name: string, type: PiiType) => support.set(name, (support.get(name) ?? new Set()).add(type))
  for (const { column, hint } of hinted) {
    const types = hint?.types ?? []
    if (types.includes("person_name") && hinted.filter(({ hint: other }) => other?.types.includes("person_name")).length >= 2) {
      add(column.name, "person_name")
    }
    if (types.includes("street_address") && (present.has("city") || present.has("us_zip_code"))) add(column.name, "street_address")
    if ((types.includes("us_zip_code") || types.includes("uk_postcode")) && (present.has("city") || present.has("street_address"))) {
      add(column.name, "us_zip_code")
      add(column.name, "uk_postcode")
    }
    // Any text column beside a postcode, country or state column may be the city; its values decide (scan/decide.ts).
    if (column.kind === "string" && !types.includes("us_zip_code") && !nameWords(column.name).some((word) => regionWords.has(word)) && (postcodeNamed || regionNamed)) {
      add(column.name, "city")
    }
  }
  for (const [latitude, longitude] of coordinatePairs(columns)) {
    add(latitude, "geo_coordinates")
    add(longitude, "geo_coordinates")
  }
  return support
}
