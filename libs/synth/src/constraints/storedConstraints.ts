import { type Constraint, constraintTypes } from "./rules.ts"

/**
 * Constraints read back from a stored model: validated when the generator was requested, so only their shape is
 * checked here (a damaged or foreign artifact is refused, never half-read).
 */
const isText = (value: unknown): value is string => typeof value === "string"
const isBound = (value: unknown) => value === null || typeof value === "number" || typeof value === "string"
const isTextList = (value: unknown) => Array.isArray(value) && value.length > 0 && value.every(isText)

const isConstraint = (value: unknown): value is Constraint => {
  if (typeof value !== "object" || value === null) return false
  const fields = value as Readonly<Record<string, unknown>>
  if (!(constraintTypes as ReadonlyArray<unknown>).includes(fields["type"])) return false
  const constraint = value as Constraint
  switch (constraint.type) {
    case "inequality":
      return isText(constraint.low) && isText(constraint.high) && typeof constraint.strict === "boolean"
    case "fixed_combinations":
    case "unique":
      return isTextList(constraint.columns)
    case "range":
      return isText(constraint.column) && isBound(constraint.min) && isBound(constraint.max) && typeof constraint.strict === "boolean"
    case "positive":
      return isText(constraint.column) && typeof constraint.strict === "boolean"
  }
}

export const readStoredConstraints = (json: unknown): { readonly constraints: ReadonlyArray<Constraint> } | { readonly error: string } => {
  if (!Array.isArray(json)) return { error: "its constraints are not a list" }
  const broken = json.findIndex((entry) => !isConstraint(entry))
  return broken >= 0 ? { error: `its constraint ${broken} is not one this version reads` } : { constraints: json as ReadonlyArray<Constraint> }
}
