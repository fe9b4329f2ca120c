/**
 * RequestValidation (security.ts) is middleware of the whole API, so Effect 4 lists its errors on every operation:
 * 400 malformed_request and 422 validation_failed. 400 is right everywhere (a multipart body without a boundary, or
 * JSON nested too deep, is refused on any route), but a 422 from request validation needs something to validate: a
 * JSON body or query parameters (path parameters are plain strings, and the only header read, `authorization`, is
 * optional). This keeps the middleware's 422 in the document only where the operation can answer it.
 */
const validationFailedRef = "#/components/schemas/ValidationFailed"

interface MediaType {
  schema?: { $ref?: string; anyOf?: Array<{ $ref?: string }> }
}

interface Operation {
  requestBody?: { content?: Record<string, unknown> }
  parameters?: Array<{ in: string }>
  responses?: Record<string, { description: string; content?: Record<string, MediaType> }>
}

const validatesInput = (operation: Operation) =>
  Object.keys(operation.requestBody?.content ?? {}).includes("application/json") ||
  (operation.parameters ?? []).some((parameter) => parameter.in === "query")

/** The 422 response without ValidationFailed; undefined when nothing else was listed there. */
const withoutValidationFailed = (response: NonNullable<Operation["responses"]>[string]) => {
  const media = response.content?.["application/json"]
  const others = (media?.schema?.anyOf ?? [media?.schema ?? {}]).filter((member) => member.$ref !== validationFailedRef)
  if (others.length === 0) return undefined
  return {
    ...response,
    description: response.description.split(" | ").filter((name) => name !== "ValidationFailed").join(" | "),
    content: {
      ...response.content,
      "application/json": { schema: others.length === 1 ? others[0]! : { anyOf: others } }
    }
  }
}

export const documentRequestValidation = (spec: Record<string, any>): Record<string, any> => {
  for (const pathItem of Object.values(spec["paths"] as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(pathItem)) {
      const unprocessable = operation.responses?.["422"]
      if (unprocessable === undefined || validatesInput(operation)) continue
      const kept = withoutValidationFailed(unprocessable)
      if (kept === undefined) delete operation.responses!["422"]
      else operation.responses!["422"] = kept
    }
  }
  return spec
}
