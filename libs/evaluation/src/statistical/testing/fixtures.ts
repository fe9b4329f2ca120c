/** Test helper: the reference fixtures (reference/fixtures, written by reference/evaluation_reference.py). */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { SynthTable } from "@synth/synth"
import { expect } from "vitest"
import { synthTableFromCsv } from "./synthTableFromCsv.ts"

const fixturesUrl = new URL("../../../reference/fixtures/", import.meta.url)
const datasetsUrl = new URL("../../../../../test/fixtures/datasets/", import.meta.url)

export const readFixture = <A>(name: string): A => JSON.parse(readFileSync(fileURLToPath(new URL(name, fixturesUrl)), "utf8")) as A

const types = readFixture<Record<string, Record<string, string>>>("types.json")

/**
 * A fixture CSV (penguins.csv from test/fixtures/datasets) as ingestion types it, checked against the types the
 * Python reference read it with, so both sides compute on the same values.
 */
export const loadTable = async (name: string): Promise<SynthTable> => {
  const url = name === "penguins.csv" ? new URL(name, datasetsUrl) : new URL(name, fixturesUrl)
  const table = await synthTableFromCsv(fileURLToPath(url))
  expect(Object.fromEntries(table.columns.map((column) => [column.name, column.type]))).toEqual(types[name])
  return table
}

/** |actual − expected| ≤ tolerance (1e-6 unless told), null only where null is expected. */
export const expectClose = (actual: number | null | undefined, expected: number | null, tolerance = 1e-6) => {
  if (expected === null) {
    expect(actual ?? null).toBeNull()
    return
  }
  expect(actual).not.toBeNull()
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(tolerance)
}
