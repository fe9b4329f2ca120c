import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { FakeGenerator } from "../FakePlan.ts"
import { countBy, heldMix, type Held, orDefault } from "../mix.ts"

/**
 * Coordinates: drawn uniformly inside the one-degree cells that ≥ k real rows fall in (a city's worth of area, never a
 * house), anywhere on earth for the others, at the column's number of decimals and in its writing.
 */
type GeoTextGenerator = Extract<FakeGenerator, { _tag: "geo_text" }>
type GeoNumberGenerator = Extract<FakeGenerator, { _tag: "geo_number" }>

const pair = /^(\(?)\s*(-?\d{1,3}(?:\.\d+)?)(\s*[,;]\s*|\s+)(-?\d{1,3}(?:\.\d+)?)\s*\)?$/

const decimalsOf = (number: string) => (number.includes(".") ? number.length - number.indexOf(".") - 1 : 0)

/** The most common of the values' decimal counts that ≥ k rows have (a count, no one's value). */
const commonDecimals = (counts: ReadonlyArray<number>, k: number, fallback: number) =>
  heldMix(counts, (count) => String(Math.min(count, 10)), k)[0]?.value ?? fallback

interface Cell {
  readonly latitude: number
  readonly longitude: number
}

const cellsOf = (cells: ReadonlyArray<Cell>, k: number): Array<Held<Cell | null>> => {
  const rows = countBy(cells, (cell) => `${cell.latitude},${cell.longitude}`)
  const held = heldMix(cells.filter((cell) => (rows.get(`${cell.latitude},${cell.longitude}`) ?? 0) >= k), (cell) => `${cell.latitude},${cell.longitude}`, k)
  const heldRows = held.reduce((sum, entry) => sum + entry.rows, 0)
  const result: Array<Held<Cell | null>> = [...held]
  if (cells.length > heldRows) result.push({ value: null, rows: cells.length - heldRows })
  return result
}

export const learnGeoText = (values: ReadonlyArray<string>, context: LearnContext): GeoTextGenerator => {
  const parsed = values.map((value) => pair.exec(value.trim())).filter((match) => match !== null)
  const coordinates = parsed
    .map((match) => ({ latitude: Number(match[2]), longitude: Number(match[4]) }))
    .filter(({ latitude, longitude }) => Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)
  const separators = heldMix(parsed, (match) => match[3]!, context.k)
  const parenthesised = parsed.filter((match) => match[1] === "(").length
  return {
    _tag: "geo_text",
    cells: orDefault(cellsOf(coordinates.map(({ latitude, longitude }) => ({ latitude: Math.floor(latitude), longitude: Math.floor(longitude) })), context.k), null),
    decimals: commonDecimals(parsed.map((match) => Math.max(decimalsOf(match[2]!), decimalsOf(match[4]!))), context.k, 5),
    separator: separators[0]?.value[3] ?? ", ",
    parentheses: parenthesised * 2 > parsed.length
  }
}

export const defaultGeoText: GeoTextGenerator = { _tag: "geo_text", cells: [{ value: null, rows: 1 }], decimals: 5, separator: ", ", parentheses: false }

const inCell = (draws: CompileContext["draws"], cell: number | null, limit: number) =>
  cell === null ? -limit + draws.unit() * 2 * limit : Math.min(limit, Math.max(-limit, cell + draws.unit()))

export const compileGeoText = (generator: GeoTextGenerator, context: CompileContext): CandidateSource => {
  const pick = context.draws.weighted(generator.cells)
  return () => {
    const cell = pick()
    const latitude = inCell(context.draws, cell?.latitude ?? null, 90).toFixed(generator.decimals)
    const longitude = inCell(context.draws, cell?.longitude ?? null, 180).toFixed(generator.decimals)
    const written = `${latitude}${generator.separator}${longitude}`
    const text = generator.parentheses ? `(${written})` : written
    return { text, key: geoTextKey(text) }
  }
}

/** The two numbers, however written (`(40.7, -74)` = `40.70,-74.00`). */
export const geoTextKey = (value: string) => {
  const match = pair.exec(value.trim())
  return match === null ? value.trim() : `${Number(match[2])},${Number(match[4])}`
}

// ---------------------------------------------------------------------------------------------------------------------

/** A numeric latitude or longitude column: longitude when any value is beyond ±90. */
export const learnGeoNumber = (values: ReadonlyArray<string>, context: LearnContext): GeoNumberGenerator => {
  const numbers = values.map(Number).filter((number) => Number.isFinite(number) && Math.abs(number) <= 180)
  const axis = numbers.some((number) => Math.abs(number) > 90) ? "longitude" : "latitude"
  const rows = countBy(numbers, (number) => String(Math.floor(number)))
  const held = heldMix(numbers.map(Math.floor).filter((cell) => (rows.get(String(cell)) ?? 0) >= context.k), String, context.k)
  const heldRows = held.reduce((sum, entry) => sum + entry.rows, 0)
  const cells: Array<Held<number | null>> = [...held]
  if (numbers.length > heldRows) cells.push({ value: null, rows: numbers.length - heldRows })
  return {
    _tag: "geo_number",
    axis,
    cells: orDefault(cells, null),
    decimals: commonDecimals(values.map(decimalsOf), context.k, 5)
  }
}

export const defaultGeoNumber: GeoNumberGenerator = { _tag: "geo_number", axis: "latitude", cells: [{ value: null, rows: 1 }], decimals: 5 }

export const compileGeoNumber = (generator: GeoNumberGenerator, context: CompileContext): CandidateSource => {
  const pick = context.draws.weighted(generator.cells)
  const limit = generator.axis === "latitude" ? 90 : 180
  return () => {
    const text = String(Number(inCell(context.draws, pick(), limit).toFixed(generator.decimals)))
    return { text, key: text }
  }
}

export const geoNumberKey = (value: string) => String(Number(value))
