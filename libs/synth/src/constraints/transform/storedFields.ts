import type { Rounding } from "../../rounding.ts"
import type { ContinuousColumn } from "../../table.ts"

/**
 * Reading a stored transform's parameters back: each reader returns the field or throws StoredTransformError, which
 * transformsFromJSON turns into the artifact's refusal (a damaged or foreign artifact, never a user's input).
 */
export class StoredTransformError extends Error {
  override readonly name = "StoredTransformError"
}

type Fields = Readonly<Record<string, unknown>>

const fail = (field: string, what: string): never => {
  throw new StoredTransformError(`its ${field} is not ${what}`)
}

export const text = (json: Fields, field: string): string =>
  typeof json[field] === "string" ? json[field] : fail(field, "a text")

export const flag = (json: Fields, field: string): boolean =>
  typeof json[field] === "boolean" ? json[field] : fail(field, "true or false")

export const numberOrNull = (json: Fields, field: string): number | null =>
  json[field] === null || (typeof json[field] === "number" && Number.isFinite(json[field]))
    ? (json[field] as number | null)
    : fail(field, "a number or null")

export const textOrNull = (json: Fields, field: string): string | null =>
  json[field] === null || typeof json[field] === "string" ? (json[field] as string | null) : fail(field, "a text or null")

export const texts = (json: Fields, field: string): ReadonlyArray<string> => {
  const value = json[field]
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : fail(field, "a list of texts")
}

export const numericType = (json: Fields, field: string): ContinuousColumn["type"] => {
  const value = json[field]
  return value === "integer" || value === "float" || value === "date" || value === "datetime" ? value : fail(field, "a number, date or datetime type")
}

export const rounding = (json: Fields, field: string): Rounding => {
  const value = json[field] as { decimals?: unknown; step?: unknown } | null | undefined
  if (value === null) return null
  if (typeof value === "object" && value !== undefined) {
    if (typeof value.decimals === "number") return { decimals: value.decimals }
    if (typeof value.step === "number") return { step: value.step }
  }
  return fail(field, "a rounding")
}
