import { SchemaAST as AST } from "effect"

/**
 * Effect Schema ASTs as the short, readable text of docs/events.md: `string (UUID)`, `integer ≥ 0`,
 * `"csv" | "json"`, `object[]`. Types are shown as they travel (the encoded side of a transformation), and
 * constraints are read from the representation annotation that every built-in check carries.
 */

export interface FieldRow {
  /** Dotted from the payload's root; `[]` marks the elements of an array (`columns[].name`). */
  readonly path: string
  readonly type: string
  readonly description: string | undefined
}

/** Whether a struct is written out in place (`{ a: string }`) or as `object`, its fields listed as rows of their own. */
type StructStyle = "inline" | "object"

/** The constraints of a node's checks, read from the representation every built-in check carries. */
interface JsonConstraints {
  readonly type?: string
  readonly format?: string
  readonly pattern?: string
  readonly minimum?: number
  readonly exclusiveMinimum?: number
  readonly maximum?: number
  readonly exclusiveMaximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly minItems?: number
  readonly maxItems?: number
}

const keywordText: Partial<Record<AST.AST["_tag"], string>> = {
  String: "string",
  Number: "number",
  Boolean: "boolean",
  BigInt: "bigint",
  Unknown: "unknown",
  Any: "any",
  Undefined: "undefined",
  Null: "null",
  ObjectKeyword: "object"
}

interface Bound {
  readonly value: number
  readonly inclusive: boolean
}

const lowerBound = (json: JsonConstraints): Bound | undefined =>
  json.minimum !== undefined ? { value: json.minimum, inclusive: true }
  : json.exclusiveMinimum !== undefined ? { value: json.exclusiveMinimum, inclusive: false }
  : undefined

const upperBound = (json: JsonConstraints): Bound | undefined =>
  json.maximum !== undefined ? { value: json.maximum, inclusive: true }
  : json.exclusiveMaximum !== undefined ? { value: json.exclusiveMaximum, inclusive: false }
  : undefined

/** One-sided bounds read as comparisons (`≥ 0`, `> 0`), two-sided ones as intervals (`in [0, 1]`). */
const comparisonText = (json: JsonConstraints): string | undefined => {
  const lower = lowerBound(json)
  const upper = upperBound(json)
  if (lower !== undefined && upper !== undefined) {
    return `in ${lower.inclusive ? "[" : "("}${lower.value}, ${upper.value}${upper.inclusive ? "]" : ")"}`
  }
  if (lower !== undefined) return `${lower.inclusive ? "≥" : ">"} ${lower.value}`
  if (upper !== undefined) return `${upper.inclusive ? "≤" : "<"} ${upper.value}`
  return undefined
}

const countText = (what: string, min: number | undefined, max: number | undefined) => {
  if (min !== undefined && max !== undefined) return min === max ? `${what} ${min}` : `${what} ${min} to ${max}`
  if (min !== undefined) return `${what} ≥ ${min}`
  if (max !== undefined) return `${what} ≤ ${max}`
  return undefined
}

type Payload = Readonly<Record<string, unknown>> | null | undefined

/** What one built-in check says in JSON Schema terms; undefined for a custom check. */
const constraintsOf = (id: string, payload: Payload, arrays: boolean): JsonConstraints | undefined => {
  const number = (key: string) => (typeof payload?.[key] === "number" ? (payload[key] as number) : undefined)
  const length = (min: number | undefined, max: number | undefined): JsonConstraints =>
    arrays ? { minItems: min, maxItems: max } as JsonConstraints : { minLength: min, maxLength: max } as JsonConstraints
  switch (id) {
    case "effect/schema/isUUID":
      return { format: "uuid" }
    case "effect/schema/isInt":
      return { type: "integer" }
    case "effect/schema/isFinite":
      return {}
    case "effect/schema/isPattern":
      return { pattern: String(payload?.["source"]) }
    case "effect/schema/isGreaterThanOrEqualTo":
      return { minimum: number("minimum") } as JsonConstraints
    case "effect/schema/isGreaterThan":
      return { exclusiveMinimum: number("exclusiveMinimum") } as JsonConstraints
    case "effect/schema/isLessThanOrEqualTo":
      return { maximum: number("maximum") } as JsonConstraints
    case "effect/schema/isLessThan":
      return { exclusiveMaximum: number("exclusiveMaximum") } as JsonConstraints
    case "effect/schema/isBetween":
      return {
        [payload?.["exclusiveMinimum"] === true ? "exclusiveMinimum" : "minimum"]: number("minimum"),
        [payload?.["exclusiveMaximum"] === true ? "exclusiveMaximum" : "maximum"]: number("maximum")
      }
    case "effect/schema/isMinLength":
      return length(number("minLength"), undefined)
    case "effect/schema/isMaxLength":
      return length(undefined, number("maxLength"))
    case "effect/schema/isLengthBetween":
    case "effect/schema/isBetweenLength":
      return length(number("minimum") ?? number("minLength"), number("maximum") ?? number("maxLength"))
    default:
      return undefined
  }
}

const flatChecks = (checks: AST.Checks | undefined): ReadonlyArray<AST.Filter<unknown>> =>
  (checks ?? []).flatMap((check) => (check._tag === "FilterGroup" ? flatChecks(check.checks) : [check]))

const representationOf = (check: AST.Filter<unknown>) => {
  const representation = check.annotations?.representation as { readonly id?: unknown; readonly payload?: Payload } | undefined
  return typeof representation?.id === "string" ? { id: representation.id, payload: representation.payload } : undefined
}

/** The type with its checks: `integer ≥ 0`, `string (UUID)`, `number (even)` for a custom check titled "even". */
const checkedText = (ast: AST.AST, structs: StructStyle): string => {
  const checks = flatChecks(ast.checks)
  const arrays = ast._tag === "Arrays"
  const known = checks.map((check) => {
    const representation = representationOf(check)
    return representation === undefined ? undefined : constraintsOf(representation.id, representation.payload, arrays)
  })
  const json: JsonConstraints = Object.assign({}, ...known.filter((constraints) => constraints !== undefined))
  // A check no JSON Schema keyword describes is a custom check: its title is the best name we have for it.
  const customChecks = checks.flatMap((check, index) =>
    known[index] === undefined ? [typeof check.annotations?.title === "string" ? check.annotations.title : "custom check"] : []
  )
  const notes = [
    json.format === "uuid" ? "UUID" : json.pattern !== undefined ? `pattern /${json.pattern}/` : undefined,
    countText("length", json.minLength, json.maxLength),
    countText("items", json.minItems, json.maxItems),
    ...customChecks
  ].filter((note) => note !== undefined)
  const comparison = comparisonText(json)
  return [
    json.type === "integer" ? "integer" : baseText(ast, structs),
    comparison === undefined ? "" : ` ${comparison}`,
    notes.length === 0 ? "" : ` (${notes.join(", ")})`
  ].join("")
}

const isOptionalProperty = (property: AST.PropertySignature) => AST.isOptional(property.type)

const propertyText = (property: AST.PropertySignature) => {
  const optional = isOptionalProperty(property)
  return `${String(property.name)}${optional ? "?" : ""}: ${typeText(property.type, "inline", optional)}`
}

const objectsText = (ast: AST.Objects, structs: StructStyle) => {
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1) {
    const [index] = ast.indexSignatures
    return `Record<${typeText(index!.parameter, "inline")}, ${typeText(index!.type, "inline")}>`
  }
  if (structs === "object" && ast.indexSignatures.length === 0) return "object"
  const members = [
    ...ast.propertySignatures.map(propertyText),
    ...ast.indexSignatures.map((index) => `[key: ${typeText(index.parameter, "inline")}]: ${typeText(index.type, "inline")}`)
  ]
  return `{ ${members.join("; ")} }`
}

const elementText = (ast: AST.AST, structs: StructStyle) => {
  const text = typeText(ast, structs)
  return text.includes(" ") && !text.startsWith("{") ? `(${text})` : text
}

const arraysText = (ast: AST.Arrays, structs: StructStyle) => {
  const [rest, ...more] = ast.rest
  if (ast.elements.length === 0 && rest !== undefined && more.length === 0) return `${elementText(rest, structs)}[]`
  const elements = ast.elements.map((element) => `${typeText(element, structs)}${AST.isOptional(element) ? "?" : ""}`)
  const spread = ast.rest.map((element) => `...${elementText(element, structs)}[]`)
  return `[${[...elements, ...spread].join(", ")}]`
}

/** The text of a type. `optional` drops the `undefined` that `Schema.optional` adds: the field says it is optional. */
export const typeText = (ast: AST.AST, structs: StructStyle = "inline", optional = false): string => {
  // A transformation is shown as it travels: its encoded side.
  if (ast.encoding !== undefined) return typeText(AST.toEncoded(ast), structs, optional)
  if (ast.checks !== undefined) return checkedText(ast, structs)
  return baseText(ast, structs, optional)
}

const baseText = (ast: AST.AST, structs: StructStyle, optional = false): string => {
  switch (ast._tag) {
    case "Literal":
      return JSON.stringify(typeof ast.literal === "bigint" ? `${ast.literal}n` : ast.literal)
    case "Union": {
      const members = ast.types.filter((member) => !(optional && AST.isUndefined(member)))
      return [...new Set(members.map((member) => typeText(member, structs)))].join(" | ")
    }
    case "Objects":
      return objectsText(ast, structs)
    case "Arrays":
      return arraysText(ast, structs)
    case "Enum":
      return ast.enums.map(([, value]) => JSON.stringify(value)).join(" | ")
    case "Declaration": {
      const annotations = AST.resolve(ast)
      const name = annotations?.["identifier"] ?? annotations?.["title"]
      return typeof name === "string" ? name : "unknown"
    }
    default:
      return keywordText[ast._tag] ?? String(ast)
  }
}

/**
 * The struct whose fields get rows of their own under a field: a struct, an array of structs, or either of them
 * nullable or optional. `suffix` is what the path gains on the way (`[]` for an array).
 */
const nestedStruct = (ast: AST.AST, suffix = ""): { readonly suffix: string; readonly struct: AST.Objects } | undefined => {
  if (ast.encoding !== undefined) return nestedStruct(AST.toEncoded(ast), suffix)
  switch (ast._tag) {
    case "Objects":
      return ast.propertySignatures.length > 0 && ast.indexSignatures.length === 0 ? { suffix, struct: ast } : undefined
    case "Arrays":
      return ast.elements.length === 0 && ast.rest.length === 1 ? nestedStruct(ast.rest[0]!, `${suffix}[]`) : undefined
    case "Union": {
      const structs = ast.types.filter((member) => !AST.isUndefined(member) && !AST.isLiteral(member) && !AST.isNull(member))
      return structs.length === 1 ? nestedStruct(structs[0]!, suffix) : undefined
    }
    default:
      return undefined
  }
}

/**
 * Effect's built-in schemas describe themselves ("a string", "a non-negative number"): they only restate the type
 * column, so a description counts as the author's only when it does not read like one of those (authors write
 * theirs without a leading "a"/"an": `refresh token id (jti)`).
 */
const authoredDescription = (annotations: { readonly [key: string]: unknown } | undefined) => {
  const description = annotations?.["description"]
  return typeof description === "string" && !/^an? /.test(description) ? description : undefined
}

const propertyRows = (property: AST.PropertySignature, prefix: string): ReadonlyArray<FieldRow> => {
  const path = `${prefix}${String(property.name)}`
  const nested = nestedStruct(property.type)
  const optional = isOptionalProperty(property)
  const type = typeText(property.type, nested === undefined ? "inline" : "object", optional)
  const row: FieldRow = {
    path,
    type: optional ? `optional ${type}` : type,
    description: authoredDescription(property.type.context?.annotations) ?? authoredDescription(AST.resolve(property.type))
  }
  if (nested === undefined) return [row]
  return [row, ...structRows(nested.struct, `${path}${nested.suffix}.`)]
}

const structRows = (struct: AST.Objects, prefix: string): ReadonlyArray<FieldRow> =>
  struct.propertySignatures.flatMap((property) => propertyRows(property, prefix))

/** One row per field of a struct schema, nested structs' fields after their parent's row. */
export const fieldRows = (ast: AST.AST): ReadonlyArray<FieldRow> => {
  const nested = nestedStruct(ast)
  if (nested === undefined || nested.suffix !== "") throw new Error(`expected a struct schema, got ${String(ast)}`)
  return structRows(nested.struct, "")
}
