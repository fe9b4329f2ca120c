/** What a parsed JSON value is, for messages ("a number", "an array"). */
export const describeJsonValue = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  switch (typeof value) {
    case "string":
      return "a string"
    case "number":
      return "a number"
    case "boolean":
      return "a boolean"
    default:
      return "an object"
  }
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
