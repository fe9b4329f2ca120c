import type { Faker } from "@faker-js/faker"
import { makeDraw } from "./draw.ts"
import type { ColumnSample, PiiType, ScanInput } from "../types.ts"
import { allLocales, type ColumnGenerator, columnGenerators, uninformativeNames } from "./columnGenerators.ts"
import { asIngested } from "./columnKinds.ts"

export interface LabelledTable {
  readonly input: ScanInput
  /** Per column of `input`, what it really holds; null for data that is not personal. */
  readonly labels: ReadonlyArray<PiiType | null>
  readonly locale: string
}

export interface CorpusOptions {
  readonly seed: number
  readonly tables: number
  readonly rowsPerTable: number
  /** Share of columns given a name that says nothing (default 0.25). */
  readonly uninformativeShare?: number
  /** Share of missing values sprinkled into each column (default 0.05). */
  readonly missingShare?: number
}

const generatorsFor = (locale: Faker) => columnGenerators.filter((generator) => generator.locales === undefined || generator.locales.includes(locale))

/**
 * A labelled corpus of small tables with @faker-js/faker in several locales: every type of types.ts (with valid
 * check digits where the type has them) next to decoys that look alike (order numbers, SKUs, 16-digit ids failing
 * Luhn, version strings) and ordinary columns. Columns carry realistic names in several languages, or in about a
 * quarter of them a name that says nothing. Values are what the scanner sees after ingestion (asIngested).
 * Deterministic for a seed; a numeric latitude/longitude pair is added to some tables.
 */
export const generateCorpus = (options: CorpusOptions): ReadonlyArray<LabelledTable> => {
  const draw = makeDraw(options.seed)
  const uninformative = options.uninformativeShare ?? 0.25
  const missing = options.missingShare ?? 0.05
  const tables: Array<LabelledTable> = []
  for (let table = 0; table < options.tables; table++) {
    const locale = allLocales[table % allLocales.length]!
    locale.seed(options.seed * 100_003 + table)
    const candidates = generatorsFor(locale)
    const count = Math.min(draw.integer(3, 8), candidates.length)
    // Types of one locale (NHS numbers, SSNs, CPFs) turn up in a ninth of the tables: weighting them up keeps every
    // type about equally represented.
    const weights: Array<number> = candidates.map((generator) => (generator.locales === undefined ? 1 : 6))
    const chosen: Array<ColumnGenerator> = []
    while (chosen.length < count) {
      let ticket = draw.next() * weights.reduce((sum, weight) => sum + weight, 0)
      const index = weights.findIndex((weight) => (ticket -= weight) < 0)
      chosen.push(candidates[index]!)
      weights[index] = 0
    }
    const columns: Array<ColumnSample> = []
    const labels: Array<PiiType | null> = []
    const usedNames = new Set<string>()
    chosen.forEach((generator, position) => {
      let name = draw.next() < uninformative
        ? draw.pick(uninformativeNames).replace("{n}", String(position + 1))
        : draw.pick(generator.names)
      while (usedNames.has(name)) name = `${name}_${position + 1}`
      usedNames.add(name)
      const pool = generator.pool?.(locale, draw)
      const weights = pool?.map((_, rank) => 1 / (rank + 1))
      const total = weights?.reduce((sum, weight) => sum + weight, 0) ?? 0
      const fromPool = () => {
        let ticket = draw.next() * total
        return pool![Math.max(0, weights!.findIndex((weight) => (ticket -= weight) < 0))]!
      }
      const raw = Array.from({ length: options.rowsPerTable }, () =>
        draw.next() < missing ? null : pool === undefined || pool.length === 0 ? generator.value(locale, draw) : fromPool()
      )
      const ingested = asIngested(raw)
      columns.push({ name, kind: ingested.kind, values: ingested.values })
      labels.push(generator.label)
    })
    if (draw.integer(0, 5) === 0) {
      const names = draw.next() < uninformative ? ["p1", "p2"] : draw.pick([["lat", "lon"], ["latitude", "longitude"], ["Breitengrad", "Laengengrad"], ["lat", "lng"]])
      const latitude = Array.from({ length: options.rowsPerTable }, () => String(locale.location.latitude({ precision: 5 })))
      const longitude = Array.from({ length: options.rowsPerTable }, () => String(locale.location.longitude({ precision: 5 })))
      columns.push({ name: names[0]!, ...asIngested(latitude) }, { name: names[1]!, ...asIngested(longitude) })
      labels.push("geo_coordinates", "geo_coordinates")
    }
    tables.push({ input: { rowCount: options.rowsPerTable, columns }, labels, locale: locale.getMetadata().code ?? "unknown" })
  }
  return tables
}
