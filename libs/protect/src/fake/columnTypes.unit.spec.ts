import { piiTypes } from "@synth/pii"
import type { ColumnType } from "@synth/synth"
import { describe, expect, it } from "vitest"
import type { FakeKind } from "../roles/ColumnPlan.ts"
import { fakeColumn } from "./fakeColumn.ts"
import { planFakeColumn } from "./planFakeColumn.ts"

const kinds: ReadonlyArray<FakeKind> = [...piiTypes, "identifier"]

/** A few values of each column type, as the table hands them over (text, null for missing). */
const samples: Record<ColumnType, ReadonlyArray<string | null>> = {
  integer: ["12", null, "7", "4111111111111111"],
  float: ["1.5", "2.25", null, "-3.125"],
  date: ["1990-01-02", null, "1975-12-31"],
  datetime: ["2020-01-01T10:00:00.000Z", "2021-05-06T23:59:59.999Z"],
  boolean: ["true", "false", null],
  string: ["x", null, "y"]
}

/** What the table can read back for each type. */
const readable: Record<ColumnType, (value: string) => boolean> = {
  integer: (value) => /^\d+$/.test(value) && Number.isSafeInteger(Number(value)),
  float: (value) => Number.isFinite(Number(value)),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value),
  datetime: (value) => !Number.isNaN(Date.parse(value)) && value.includes("T"),
  boolean: (value) => value === "true" || value === "false",
  string: (value) => value !== ""
}

describe("every kind on every column type", () => {
  for (const type of Object.keys(samples) as Array<ColumnType>) {
    it.each(kinds)(`%s in a ${type} column gives values the table reads back, learned or not`, (kind) => {
      for (const learnFromValues of [true, false]) {
        const { plan, realValues } = planFakeColumn({ name: "c", type, kind, values: samples[type] }, { seed: 1, rareThreshold: 5, learnFromValues })
        const fakes = fakeColumn(plan, 60, 1, realValues)
        expect(fakes).toHaveLength(60)
        expect(fakes.filter((value) => value !== null && !readable[type](value))).toEqual([])
      }
    })

    it(`an all-missing ${type} column stays missing`, () => {
      const { plan, realValues } = planFakeColumn({ name: "c", type, kind: "identifier", values: [null, null] }, { seed: 1, rareThreshold: 5, learnFromValues: true })
      expect(fakeColumn(plan, 10, 1, realValues)).toEqual(Array.from({ length: 10 }, () => null))
    })
  }
})
