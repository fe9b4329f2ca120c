import { Result } from "effect"

/**
 * `--constraint` and `--condition` as a person types them, turned into the request's JSON. Only the shape is read
 * here: which columns exist and what their values may be is the server's to say (422, by field), so the CLI and the
 * API refuse the same things with the same words.
 */
export type RequestedConstraint = Readonly<Record<string, unknown>>
export type ConditionValue = string | number | { readonly min?: string | number; readonly max?: string | number }

/** Numbers stay numbers (number columns take nothing else); any other text is sent as text. */
const valueOf = (text: string): string | number => {
  const trimmed = text.trim()
  if (trimmed.startsWith("\"")) {
    // A quoted value is text even when it looks like a number: a zip code, a label "1".
    try {
      const parsed: unknown = JSON.parse(trimmed)
      if (typeof parsed === "string") return parsed
    } catch {
      return trimmed
    }
  }
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed) ? Number(trimmed) : trimmed
}

const columnList = (text: string) => text.split(",").map((column) => column.trim()).filter((column) => column !== "")

const shortForms =
  "JSON ({\"type\":\"range\",\"column\":\"discount\",\"min\":0,\"max\":0.5}) or a short form: LOW<=HIGH, LOW<HIGH, " +
  "COLUMN=MIN..MAX (range; either end may be left out), positive:COLUMN, unique:COLUMN[,COLUMN...], " +
  "fixed:COLUMN,COLUMN[,...]"

/** `{...}` as JSON, else one of the short forms. */
export const parseConstraint = (text: string): Result.Result<RequestedConstraint, string> => {
  const trimmed = text.trim()
  if (trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed)
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
        ? Result.succeed(parsed as RequestedConstraint)
        : Result.fail(`--constraint ${JSON.stringify(text)} is not a JSON object`)
    } catch (error) {
      return Result.fail(`--constraint ${JSON.stringify(text)} is not valid JSON (${(error as Error).message})`)
    }
  }
  const inequality = /^([^<>=]+?)\s*(<=|<)\s*([^<>=]+)$/.exec(trimmed)
  if (inequality !== null) {
    return Result.succeed({ type: "inequality", low: inequality[1]!.trim(), high: inequality[3]!.trim(), strict: inequality[2] === "<" })
  }
  const prefixed = /^(positive|unique|fixed):(.+)$/.exec(trimmed)
  if (prefixed !== null) {
    const [, kind, rest] = prefixed
    if (kind === "positive") return Result.succeed({ type: "positive", column: rest!.trim() })
    return Result.succeed({ type: kind === "unique" ? "unique" : "fixed_combinations", columns: columnList(rest!) })
  }
  const range = /^([^=]+)=(.*)\.\.(.*)$/.exec(trimmed)
  if (range !== null) {
    const [, column, min, max] = range
    return Result.succeed({
      type: "range",
      column: column!.trim(),
      min: min!.trim() === "" ? null : valueOf(min!),
      max: max!.trim() === "" ? null : valueOf(max!)
    })
  }
  return Result.fail(`--constraint ${JSON.stringify(text)} is not a constraint: write ${shortForms}`)
}

/** `COLUMN=VALUE` or `COLUMN=MIN..MAX` (either end may be left out). */
export const parseCondition = (text: string): Result.Result<readonly [string, ConditionValue], string> => {
  const at = text.indexOf("=")
  if (at <= 0) return Result.fail(`--condition ${JSON.stringify(text)} is not COLUMN=VALUE or COLUMN=MIN..MAX`)
  const column = text.slice(0, at).trim()
  const value = text.slice(at + 1)
  const range = /^(.*)\.\.(.*)$/.exec(value)
  if (range === null || value.trim().startsWith("\"")) return Result.succeed([column, valueOf(value)])
  const [, min, max] = range
  return Result.succeed([column, {
    ...(min!.trim() === "" ? {} : { min: valueOf(min!) }),
    ...(max!.trim() === "" ? {} : { max: valueOf(max!) })
  }])
}

/** Every `--condition` as the request's `conditions` object (a column given twice: the last one counts). */
export const conditionsOf = (pairs: ReadonlyArray<readonly [string, ConditionValue]>): Readonly<Record<string, ConditionValue>> | null =>
  pairs.length === 0 ? null : Object.fromEntries(pairs)
