/**
 * The rules a generation request may set on its output (issue 26): constraints every output row obeys, and
 * conditions a particular sample meets. Parsed and defaulted by validateRules.ts; stored with the model as they are
 * here, so a later sample obeys what the training request asked. Values stay as the user wrote them (numbers for
 * number columns, ISO 8601 text for dates and datetimes); bounds.ts converts them where a column's type is known.
 */

/** A bound as the request gives it: a number for an integer or float column, ISO 8601 text for a date or datetime. */
export type BoundValue = number | string

export type Constraint =
  /** `low <= high` (`<` when strict) wherever both are present. */
  | { readonly type: "inequality"; readonly low: string; readonly high: string; readonly strict: boolean }
  /** Only combinations of these columns' values that occur in the data (missing counts as a value). */
  | { readonly type: "fixed_combinations"; readonly columns: ReadonlyArray<string> }
  /** `min <= column <= max` wherever present (`<` when strict); one of min and max may be null (no bound). */
  | {
    readonly type: "range"
    readonly column: string
    readonly min: BoundValue | null
    readonly max: BoundValue | null
    readonly strict: boolean
  }
  /** No two rows share their values of these columns (rows missing one of them are not compared, as SQL's UNIQUE). */
  | { readonly type: "unique"; readonly columns: ReadonlyArray<string> }
  /** `column >= 0` (`> 0` when strict) wherever present: SDV's Positive, whose default is not strict. */
  | { readonly type: "positive"; readonly column: string; readonly strict: boolean }

export type ConstraintType = Constraint["type"]

export const constraintTypes: ReadonlyArray<ConstraintType> = ["inequality", "fixed_combinations", "range", "unique", "positive"]

/** What a sample must meet per column: one value (a category, a boolean, an exact number or date), or a range. */
export type Condition =
  | { readonly kind: "equals"; readonly column: string; readonly value: BoundValue | boolean }
  | { readonly kind: "between"; readonly column: string; readonly min: BoundValue | null; readonly max: BoundValue | null }

/** The columns a constraint reads. */
export const constraintColumns = (constraint: Constraint): ReadonlyArray<string> => {
  switch (constraint.type) {
    case "inequality":
      return [constraint.low, constraint.high]
    case "fixed_combinations":
    case "unique":
      return constraint.columns
    case "range":
    case "positive":
      return [constraint.column]
  }
}

const bound = (value: BoundValue | null) => (value === null ? null : typeof value === "number" ? String(value) : value)

/** How messages name a constraint: `inequality ordered_at <= shipped_at`, `range discount in [0, 0.5]`. */
export const describeConstraint = (constraint: Constraint): string => {
  switch (constraint.type) {
    case "inequality":
      return `inequality ${constraint.low} ${constraint.strict ? "<" : "<="} ${constraint.high}`
    case "fixed_combinations":
      return `fixed_combinations ${constraint.columns.join(", ")}`
    case "unique":
      return `unique ${constraint.columns.join(", ")}`
    case "positive":
      return `positive ${constraint.column} ${constraint.strict ? "> 0" : ">= 0"}`
    case "range": {
      const [open, close] = constraint.strict ? ["(", ")"] : ["[", "]"]
      return `range ${constraint.column} in ${open}${bound(constraint.min) ?? "-inf"}, ${bound(constraint.max) ?? "inf"}${close}`
    }
  }
}

/** How messages name a condition: `churned = "Yes"`, `age in [30, 40]`. */
export const describeCondition = (condition: Condition): string =>
  condition.kind === "equals"
    ? `${condition.column} = ${JSON.stringify(condition.value)}`
    : `${condition.column} in [${bound(condition.min) ?? "-inf"}, ${bound(condition.max) ?? "inf"}]`
