import { Schema } from "effect"
import { fakeColumn } from "../fake/fakeColumn.ts"
import { FakePlan } from "../fake/FakePlan.ts"
import { planFakeColumn } from "../fake/planFakeColumn.ts"
import type { Fakers } from "./Fakers.ts"

const decodePlan = Schema.decodeUnknownSync(FakePlan)

/** The fakers of libs/protect/src/fake; a stored plan is decoded (and checked) before it draws. */
export const defaultFakers: Fakers = {
  plan: planFakeColumn,
  fake: (plan, rows, seed, realValues) => fakeColumn(decodePlan(plan), rows, seed, realValues)
}
