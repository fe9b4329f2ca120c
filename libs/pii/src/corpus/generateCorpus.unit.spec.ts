import { describe, expect, it } from "vitest"
import { patternDetectors } from "../patterns/detectors.ts"
import { piiTypes } from "../types.ts"
import { generateCorpus } from "./generateCorpus.ts"

const checksumTypes = new Set(patternDetectors.filter((detector) => detector.strength === "checksum").map((detector) => detector.type))

describe("generateCorpus", () => {
  it("is deterministic for a seed", () => {
    const a = generateCorpus({ seed: 11, tables: 5, rowsPerTable: 10 })
    const b = generateCorpus({ seed: 11, tables: 5, rowsPerTable: 10 })
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
    expect(JSON.stringify(generateCorpus({ seed: 12, tables: 5, rowsPerTable: 10 }))).not.toBe(JSON.stringify(a))
  })

  it("covers every type, with row-aligned columns and valid check digits", () => {
    const corpus = generateCorpus({ seed: 21, tables: 300, rowsPerTable: 20 })
    const seen = new Set(corpus.flatMap((table) => table.labels))
    for (const type of piiTypes) expect(seen.has(type), type).toBe(true)
    expect(seen.has(null)).toBe(true)
    for (const table of corpus) {
      for (const column of table.input.columns) expect(column.values).toHaveLength(20)
      table.input.columns.forEach((column, index) => {
        const label = table.labels[index]
        // CPFs and DNIs are checksum-valid; the other national ids have no checksum detector.
        if (label === undefined || label === null || !checksumTypes.has(label)) return
        const detectors = patternDetectors.filter((detector) => detector.type === label && detector.strength === "checksum")
        for (const value of column.values) {
          if (value !== null) expect(detectors.some((detector) => detector.matches(value)), `${label}: ${value.length} chars`).toBe(true)
        }
      })
    }
  })
})
