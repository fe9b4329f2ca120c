import type { PiiScan } from "../scan/PiiScan.ts"
import { piiTypes, type PiiType } from "../types.ts"
import type { LabelledTable } from "./generateCorpus.ts"

export interface TypeScore {
  readonly type: PiiType
  readonly support: number
  readonly truePositives: number
  readonly predicted: number
  readonly precision: number
  readonly recall: number
}

export interface CorpusScore {
  readonly perType: ReadonlyArray<TypeScore>
  /** Decoy and ordinary columns (label null) flagged as any type. */
  readonly decoys: { readonly columns: number; readonly flagged: number; readonly falsePositiveRate: number }
}

/**
 * Column-level precision and recall per type: a column counts as predicted type T when the scan has a finding of
 * type T for it. Precision is 1 for a type never predicted (nothing wrong was said), recall 1 for a type absent.
 */
export const scoreCorpus = (tables: ReadonlyArray<LabelledTable>, scans: ReadonlyArray<PiiScan>): CorpusScore => {
  const support = new Map<PiiType, number>()
  const predicted = new Map<PiiType, number>()
  const correct = new Map<PiiType, number>()
  let decoys = 0
  let flaggedDecoys = 0
  tables.forEach((table, index) => {
    const findings = new Map(scans[index]!.findings.map((finding) => [finding.column, finding.type]))
    table.input.columns.forEach((column, position) => {
      const label = table.labels[position] ?? null
      const found = findings.get(column.name)
      if (label === null) {
        decoys++
        if (found !== undefined) flaggedDecoys++
      } else {
        support.set(label, (support.get(label) ?? 0) + 1)
      }
      if (found !== undefined) {
        predicted.set(found, (predicted.get(found) ?? 0) + 1)
        if (found === label) correct.set(found, (correct.get(found) ?? 0) + 1)
      }
    })
  })
  const perType = piiTypes.map((type) => {
    const truePositives = correct.get(type) ?? 0
    const typePredicted = predicted.get(type) ?? 0
    const typeSupport = support.get(type) ?? 0
    return {
      type,
      support: typeSupport,
      truePositives,
      predicted: typePredicted,
      precision: typePredicted === 0 ? 1 : truePositives / typePredicted,
      recall: typeSupport === 0 ? 1 : truePositives / typeSupport
    }
  })
  return { perType, decoys: { columns: decoys, flagged: flaggedDecoys, falsePositiveRate: decoys === 0 ? 0 : flaggedDecoys / decoys } }
}
