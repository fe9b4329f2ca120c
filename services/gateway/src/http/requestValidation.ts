import { type FieldError, MalformedRequest, RequestValidation, ValidationFailed } from "@synth/contracts"
import { Effect, type SchemaIssue } from "effect"
import { HttpApiMiddleware } from "effect/http-api"

/**
 * RequestValidation: Effect 4's HttpApi answers a request its schemas refuse with an empty 400; this API answers it
 * as a problem naming each field, as it always has. The schema's own messages are not used for type errors: they
 * quote the value they got, which may be a password.
 */
export const RequestValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestValidation, (error) =>
  Effect.fail(problemOf(error.cause.issue)))

type IssueKind = "Missing" | "Unexpected" | "Refinement" | "Type"

interface FlatIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly kind: IssueKind
  readonly message?: string | undefined
}

/** The leaves of a schema issue, each with its path: what went wrong where. */
const flatten = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): ReadonlyArray<FlatIssue> => {
  switch (issue._tag) {
    case "Pointer":
      return flatten(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((inner) => flatten(inner, path))
    case "AnyOf":
      // No member matched; without inner issues it is a value of none of the members' types (a literal not listed).
      return issue.issues.length === 0 ? [{ path, kind: "Type" }] : issue.issues.flatMap((inner) => flatten(inner, path))
    case "Encoding":
      return flatten(issue.issue, path)
    case "Filter": {
      const message = issue.filter.annotations?.message
      return [{ path, kind: "Refinement", message: typeof message === "string" ? message : undefined }]
    }
    case "MissingKey":
      return [{ path, kind: "Missing" }]
    case "UnexpectedKey":
      return [{ path, kind: "Unexpected" }]
    case "InvalidValue": {
      const message = issue.annotations?.message
      return [{ path, kind: typeof message === "string" ? "Refinement" : "Type", message }]
    }
    default:
      return [{ path, kind: "Type" }]
  }
}

/**
 * The request did not match the endpoint's schemas. A body that is not JSON at all is malformed (400); a JSON
 * body with wrong or missing fields is a validation failure (422) listing each field.
 */
const problemOf = (issue: SchemaIssue.Issue): MalformedRequest | ValidationFailed => {
  const issues = flatten(issue, [])
  if (issues.length === 0 || issues.some((flat) => flat.path.length === 0)) {
    return new MalformedRequest({ detail: "The request body must be a JSON object sent as Content-Type: application/json." })
  }
  const errors = mostSpecific(issues.map((flat) => ({ field: flat.path.map(String).join("."), message: issueMessage(flat) })))
  const detail = `The request is invalid: ${errors.map((error) => `${error.field}: ${error.message}`).join("; ")}.`
  return new ValidationFailed({ detail, errors })
}

/**
 * Each field once, and only where it went wrong: a union or optional schema reports one value's failure once per
 * member, and again on the enclosing object ("ml_utility_config: has the wrong type" beside
 * "ml_utility_config.test_size: has the wrong type"), which says nothing the inner field does not. Effect 4 runs
 * every check of a field where Effect 3 stopped at the first (`must be a whole number` before `1 or more`): the
 * first one stands for the field.
 */
const mostSpecific = (errors: ReadonlyArray<FieldError>): ReadonlyArray<FieldError> => {
  const seen = new Set<string>()
  return errors.filter((error) => {
    if (seen.has(error.field)) return false
    seen.add(error.field)
    return !errors.some((other) => other.field.startsWith(`${error.field}.`))
  })
}

/**
 * Refinement messages are ours and name the rule; the schema's own messages quote the value they got ("Expected
 * string, actual …"), which may be a password, so they are replaced by what is wrong without the value.
 */
const issueMessage = (issue: FlatIssue) => {
  switch (issue.kind) {
    case "Missing":
      return "is missing"
    case "Unexpected":
      return "is not an accepted field"
    case "Refinement":
      return issue.message ?? "is invalid"
    default:
      return "has the wrong type or format"
  }
}

