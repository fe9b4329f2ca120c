import { type Constraint, describeConstraint, type SynthColumn, type SynthTable, uniqueKeyOf } from "@synth/synth"
import type { Fakers } from "./Fakers.ts"
import type { RealDataFilters } from "./prepareTraining.ts"
import type { ProtectionPlan } from "./ProtectionPlan.ts"
import { realValuesOf } from "./sampleProtected.ts"
import { sampleSeeds } from "./seeds.ts"

/**
 * A unique constraint on a faked column (an identifier, typically): the fakes of one column are distinct when its
 * plan says so, but name lists run out and a plan learned without the data may repeat. Rows repeating an earlier
 * row's values get fresh fakes in their faked columns, in rounds, until none repeats.
 */
const maxRounds = 10

export type DistinctFakes =
  | { readonly ok: true; readonly fakes: ReadonlyMap<string, ReadonlyArray<string | null>> }
  | { readonly ok: false; readonly index: number; readonly rule: string; readonly repeated: number; readonly message: string }

/** Rows whose key repeats an earlier row's. */
const repeatedRows = (keyOf: (row: number) => string | null, rowCount: number): Array<number> => {
  const seen = new Set<string>()
  const repeated: Array<number> = []
  for (let row = 0; row < rowCount; row++) {
    const key = keyOf(row)
    if (key === null) continue
    if (seen.has(key)) repeated.push(row)
    else seen.add(key)
  }
  return repeated
}

export const distinctFakes = (
  plan: ProtectionPlan,
  constraints: ReadonlyArray<Constraint>,
  fakers: Fakers,
  filters: RealDataFilters | null,
  seed: number,
  assemble: (fakes: ReadonlyMap<string, ReadonlyArray<string | null>>) => SynthTable,
  drawn: ReadonlyMap<string, ReadonlyArray<string | null>>
): DistinctFakes => {
  const seeds = sampleSeeds(seed)
  const fakePlans = new Map(plan.fakes.map((fake) => [fake.column, fake.plan]))
  const fakes = new Map(drawn)
  for (const [index, constraint] of constraints.entries()) {
    if (constraint.type !== "unique") continue
    const faked = constraint.columns.filter((name) => fakes.has(name))
    if (faked.length === 0) continue
    for (let round = 0; ; round++) {
      const table = assemble(fakes)
      const columns = constraint.columns.map((name) => table.columns.find((column) => column.name === name)) as Array<SynthColumn>
      const repeated = repeatedRows(uniqueKeyOf(columns), table.rowCount)
      if (repeated.length === 0) break
      if (round === maxRounds) {
        return {
          ok: false,
          index,
          rule: describeConstraint(constraint),
          repeated: repeated.length,
          message: `constraint ${index} (${describeConstraint(constraint)}): ${repeated.length} rows still repeat an earlier row's values after ${maxRounds} rounds of fresh fake values for ${faked.join(", ")}; the fakes of that kind run out for this many rows`
        }
      }
      for (const name of faked) {
        const column = plan.columns.findIndex((planned) => planned.name === name)
        const fresh = fakers.fake(fakePlans.get(name), repeated.length, seeds.refake(round, column), realValuesOf(filters, name))
        const texts = [...fakes.get(name)!]
        repeated.forEach((row, at) => (texts[row] = fresh[at]!))
        fakes.set(name, texts)
      }
    }
  }
  return { ok: true, fakes }
}
