import type { CategoryCondition } from "../models/trainModel.ts"
import type { Condition } from "./rules.ts"

/**
 * The categories a steerable model (CTGAN) can be conditioned on: every condition asking for one value. A model
 * ignores those that are not categories of its own columns (a number, a date); ranges are left to rejection.
 */
export const steeringCategories = (conditions: ReadonlyArray<Condition>): ReadonlyArray<CategoryCondition> =>
  conditions.flatMap((condition) => (condition.kind === "equals" ? [{ column: condition.column, label: String(condition.value) }] : []))
