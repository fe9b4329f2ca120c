import { Option, SchemaAST as AST } from "effect"

/**
 * Effect Schema ASTs as the short, readable text of docs/events.md: `string (UUID)`, `integer ≥ 0`,
 * `"csv" | "json"`, `object[]`. Types are shown as they travel (the encoded side of a transformation), and
 * constraints are read from the JSON Schema annotation that every built-in filter carries.
 */

export interface FieldRow {
  /** Dotted from the payload's root; `[]` marks the elements of an array (`columns[].name`). */
  readonly path: string
  readonly type: string
  readonly description: string | undefined
}

/** Whether a struct is written out in place (`{ a: string }`) or as `object`, its fields listed as rows of their own. */
type StructStyle = "inline" | "object"

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
  StringKeyword: "string",
  NumberKeyword: "number",
  BooleanKeyword: "boolean",
  BigIntKeyword: "bigint",
  UnknownKeyword: "unknown",
  AnyKeyword: "any",
  UndefinedKeyword: "undefined",
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

const refinementText = (ast: AST.Refinement, structs: StructStyle): string => {
  const chain: Array<AST.Refinement> = []
  let base: AST.AST = ast
  while (AST.isRefinement(base)) {
    chain.unshift(base)
    base = base.from
  }
  const json: JsonConstraints = Object.assign(
    {},
    ...chain.map((refinement) => AST.getJSONSchemaAnnotation(refinement).pipe(Option.getOrElse(() => ({}))))
  )
  // A filter without a JSON Schema annotation is a custom check: its title is the best name we have for it.
  const customChecks = chain.flatMap((refinement) =>
    Option.isSome(AST.getJSONSchemaAnnotation(refinement))
      ? []
      : [AST.getTitleAnnotation(refinement).pipe(Option.getOrElse(() => "custom check"))]
  )
  const notes = [
    json.format === "uuid" ? "UUID" : json.pattern !== undefined ? `pattern /${json.pattern}/` : undefined,
    countText("length", json.minLength, json.maxLength),
    countText("items", json.minItems, json.maxItems),
    ...customChecks
  ].filter((note) => note !== undefined)
  const comparison = comparisonText(json)
  return [
    json.type === "integer" ? "integer" : typeText(base, structs),
    comparison === undefined ? "" : ` ${comparison}`,
    notes.length === 0 ? "" : ` (${notes.join(", ")})`
  ].join("")
}

const propertyText = (property: AST.PropertySignature) =>
  `${String(property.name)}${property.isOptional ? "?" : ""}: ${typeText(property.type, "inline", property.isOptional)}`

const typeLiteralText = (ast: AST.TypeLiteral, structs: StructStyle) => {
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

const tupleText = (ast: AST.TupleType, structs: StructStyle) => {
  const [rest, ...more] = ast.rest
  if (ast.elements.length === 0 && rest !== undefined && more.length === 0) return `${elementText(rest.type, structs)}[]`
  const elements = ast.elements.map((element) => `${typeText(element.type, structs)}${element.isOptional ? "?" : ""}`)
  const spread = ast.rest.map((element) => `...${elementText(element.type, structs)}[]`)
  return `[${[...elements, ...spread].join(", ")}]`
}

/** The text of a type. `optional` drops the `undefined` that `Schema.optional` adds: the field says it is optional. */
export const typeText = (ast: AST.AST, structs: StructStyle = "inline", optional = false): string => {
  switch (ast._tag) {
    case "Literal":
      return ast.literal === null ? "null" : JSON.stringify(typeof ast.literal === "bigint" ? `${ast.literal}n` : ast.literal)
    case "Union": {
      const members = ast.types.filter((member) => !(optional && AST.isUndefinedKeyword(member)))
      return [...new Set(members.map((member) => typeText(member, structs)))].join(" | ")
    }
    case "Refinement":
      return refinementText(ast, structs)
    case "Transformation":
      return typeText(ast.from, structs, optional)
    case "TypeLiteral":
      return typeLiteralText(ast, structs)
    case "TupleType":
      return tupleText(ast, structs)
    case "Enums":
      return ast.enums.map(([, value]) => JSON.stringify(value)).join(" | ")
    case "Declaration":
      return AST.getIdentifierAnnotation(ast).pipe(
        Option.orElse(() => AST.getTitleAnnotation(ast)),
        Option.getOrElse(() => "unknown")
      )
    default:
      return keywordText[ast._tag] ?? String(ast)
  }
}

/**
 * The struct whose fields get rows of their own under a field: a struct, an array of structs, or either of them
 * nullable or optional. `suffix` is what the path gains on the way (`[]` for an array).
 */
const nestedStruct = (ast: AST.AST, suffix = ""): { readonly suffix: string; readonly struct: AST.TypeLiteral } | undefined => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.length > 0 && ast.indexSignatures.length === 0 ? { suffix, struct: ast } : undefined
    case "TupleType":
      return ast.elements.length === 0 && ast.rest.length === 1 ? nestedStruct(ast.rest[0]!.type, `${suffix}[]`) : undefined
    case "Union": {
      const structs = ast.types.filter((member) => !AST.isUndefinedKeyword(member) && !AST.isLiteral(member))
      return structs.length === 1 ? nestedStruct(structs[0]!, suffix) : undefined
    }
    case "Refinement":
    case "Transformation":
      return nestedStruct(ast.from, suffix)
    default:
      return undefined
  }
}

/**
 * Effect's built-in schemas describe themselves ("a string", "a non-negative number"): they only restate the type
 * column, so a description counts as the author's only when it does not read like one of those (authors write
 * theirs without a leading "a"/"an": `refresh token id (jti)`).
 */
const authoredDescription = (annotated: AST.Annotated) =>
  AST.getDescriptionAnnotation(annotated).pipe(
    Option.filter((text) => !/^an? /.test(text)),
    Option.getOrUndefined
  )

const propertyRows = (property: AST.PropertySignature, prefix: string): ReadonlyArray<FieldRow> => {
  const path = `${prefix}${String(property.name)}`
  const nested = nestedStruct(property.type)
  const type = typeText(property.type, nested === undefined ? "inline" : "object", property.isOptional)
  const row: FieldRow = {
    path,
    type: property.isOptional ? `optional ${type}` : type,
    description: authoredDescription(property) ?? authoredDescription(property.type)
  }
  if (nested === undefined) return [row]
  return [row, ...structRows(nested.struct, `${path}${nested.suffix}.`)]
}

const structRows = (struct: AST.TypeLiteral, prefix: string): ReadonlyArray<FieldRow> =>
  struct.propertySignatures.flatMap((property) => propertyRows(property, prefix))

/** One row per field of a struct schema, nested structs' fields after their parent's row. */
export const fieldRows = (ast: AST.AST): ReadonlyArray<FieldRow> => {
  const nested = nestedStruct(ast)
  if (nested === undefined || nested.suffix !== "") throw new Error(`expected a struct schema, got ${String(ast)}`)
  return structRows(nested.struct, "")
}
