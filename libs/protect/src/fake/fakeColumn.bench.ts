/**
 * How fast fakes are made: a million values of an e-mail, an SSN, a name and an integer-identifier column, each
 * planned from 10,000 real-looking values (faker, another seed). Prints one JSON object per column: wall and CPU
 * time (on a shared machine the CPU time is the steadier number).
 * Run: `node libs/protect/src/fake/fakeColumn.bench.ts [rows]` (a million by default).
 */
import { Faker, en } from "@faker-js/faker"
import type { FakeKind } from "../roles/ColumnPlan.ts"
import { fakeColumn } from "./fakeColumn.ts"
import { planFakeColumn } from "./planFakeColumn.ts"

const rows = Number(process.argv[2] ?? 1_000_000)
const real = new Faker({ locale: [en] })
real.seed(20_240_601)

const columns: ReadonlyArray<{ name: string; type: "string" | "integer"; kind: FakeKind; make: () => string; distinct?: number }> = [
  { name: "email", type: "string", kind: "email_address", make: () => real.internet.email() },
  { name: "ssn", type: "string", kind: "social_security_number", make: () => `${real.number.int({ min: 1, max: 899 }).toString().padStart(3, "0")}-${real.string.numeric(2)}-${real.string.numeric(4)}` },
  { name: "full_name", type: "string", kind: "person_name", make: () => `${real.person.firstName()} ${real.person.lastName()}` },
  // 400 distinct names: the column is unique, so a million distinct names out of faker's ~1.4 million English ones.
  { name: "full_name_distinct", type: "string", kind: "person_name", make: () => `${real.person.firstName()} ${real.person.lastName()}`, distinct: 400 },
  { name: "customer_id", type: "integer", kind: "identifier", make: () => String(real.number.int({ min: 100_000, max: 9_999_999 })) }
]

for (const column of columns) {
  const values = column.distinct !== undefined ? [...new Set(Array.from({ length: column.distinct }, column.make))] : Array.from({ length: 10_000 }, column.make)
  const planStart = performance.now()
  const { plan, realValues } = planFakeColumn({ name: column.name, type: column.type, kind: column.kind, values }, { seed: 1, rareThreshold: 5, learnFromValues: true })
  const planMs = performance.now() - planStart
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  const fakes = fakeColumn(plan, rows, 2, realValues)
  const cpu = process.cpuUsage(cpuStart)
  const fakeMs = performance.now() - start
  console.log(JSON.stringify({ bench: "fake-column", column: column.name, kind: column.kind, unique: plan.unique, rows: fakes.length, planMs: Math.round(planMs), fakeMs: Math.round(fakeMs), fakeCpuMs: Math.round((cpu.user + cpu.system) / 1000), nsPerValue: Math.round((fakeMs * 1e6) / rows) }))
}
