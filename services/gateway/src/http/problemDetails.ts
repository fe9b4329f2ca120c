import { HttpEffect, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { errorTypeUri, type FieldError, type ProblemDetails } from "@synth/contracts"
import { Cause, Effect, type SchemaIssue } from "effect"
import { recordRequest } from "./metrics.ts"
import { currentRequestId, requestIdOf } from "./requestContext.ts"
import { routeTemplateOf } from "./routeTemplates.ts"

/**
 * Every response leaves through here: it gets an `X-Request-Id`, and every error response, whoever produced it
 * (a handler's typed error, request decoding, an unknown route, a defect), becomes one RFC 9457 problem document.
 * A defect is logged with its cause and answered with "internal error" and the request id only.
 *
 * The rewrite is a pre-response handler because the platform writes the response inside the app a middleware
 * wraps: by the time a middleware sees the response, it has been sent. Request decoding failures reach here as
 * defects (HttpApi answers them with an empty 400), and are answered with their field problems instead.
 */
export const withProblemDetails = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = requestIdOf(request)
    const arrived = performance.now()
    yield* HttpEffect.appendPreResponseHandler((request, response) =>
      Effect.as(
        accessed(request, response.status, (performance.now() - arrived) / 1000, requestId),
        HttpServerResponse.setHeader(
          response.status >= 400 ? toProblemResponse(response, request, requestId) : response,
          "x-request-id",
          requestId
        )
      )
    )
    return yield* app.pipe(
      Effect.catchDefect((defect) =>
        HttpApiError.HttpApiSchemaError.is(defect) && defect.kind !== "Body" && defect.kind !== "ResponseHeaders"
          ? Effect.succeed(problemResponse(fromSchemaError(defect.cause.issue)))
          : Effect.die(defect)
      ),
      Effect.tapCause((cause) =>
        HttpServerError.causeResponseStripped(cause)[0].status >= 500 && !Cause.hasInterruptsOnly(cause)
          ? Effect.logError("request failed", cause)
          : Effect.void
      ),
      Effect.provideService(currentRequestId, requestId),
      Effect.annotateLogs({ requestId })
    )
  })

/**
 * One access-log line and one histogram observation per response. Only the route template is written, never the
 * path or the query string (ids, tokens in links), and nothing of the headers or bodies.
 */
const accessed = (request: HttpServerRequest.HttpServerRequest, status: number, seconds: number, requestId: string) => {
  const route = routeTemplateOf(request.method, request.url)
  return Effect.andThen(
    recordRequest(request.method, route, status, seconds),
    Effect.logInfo("request served").pipe(
      Effect.annotateLogs({ requestId, method: request.method, route, status, durationMs: Math.round(seconds * 1e4) / 10 })
    )
  )
}

const titles: Record<number, readonly [code: string, title: string]> = {
  400: ["malformed_request", "Malformed request"],
  401: ["invalid_token", "Invalid token"],
  403: ["forbidden", "Forbidden"],
  404: ["not_found", "Not found"],
  405: ["method_not_allowed", "Method not allowed"],
  409: ["conflict", "Conflict"],
  413: ["payload_too_large", "Payload too large"],
  415: ["unsupported_media_type", "Unsupported media type"],
  422: ["validation_failed", "Validation failed"],
  429: ["rate_limited", "Too many requests"],
  503: ["service_unavailable", "Service unavailable"]
}

const toProblemResponse = (
  response: HttpServerResponse.HttpServerResponse,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string
) => {
  const problem = problemFor(response.status, bodyJson(response), request)
  const document: ProblemDetails & Record<string, unknown> = { ...problem, request_id: requestId }
  let result = HttpServerResponse.jsonUnsafe(document, {
    status: document.status,
    contentType: "application/problem+json",
    headers: response.headers
  })
  if (document.status === 401) {
    const error = document.code === "invalid_token" ? ', error="invalid_token"' : ""
    result = HttpServerResponse.setHeader(result, "www-authenticate", `Bearer realm="synth"${error}`)
  }
  if (document.status === 429 && typeof document["retry_after"] === "number") {
    result = HttpServerResponse.setHeader(result, "retry-after", String(document["retry_after"]))
  }
  if (mayHaveUnreadBody(request)) result = HttpServerResponse.setHeader(result, "connection", "close")
  return result
}

/**
 * An error can be answered before the request body was read (an upload over the size limit, a refused token on an
 * upload). Node would then read, and discard, the rest of the body to keep the connection: `Connection: close`
 * makes it close instead, so a client sending gigabytes is stopped at once. Small bodies are not worth a new
 * connection.
 */
const unreadBodyThreshold = 64 * 1024

const mayHaveUnreadBody = (request: HttpServerRequest.HttpServerRequest) => {
  const declared = Number(request.headers["content-length"] ?? "0")
  return (
    /^multipart\//i.test(request.headers["content-type"] ?? "") ||
    request.headers["transfer-encoding"] !== undefined ||
    (Number.isFinite(declared) && declared > unreadBodyThreshold)
  )
}

type Problem = Omit<ProblemDetails, "request_id"> & Record<string, unknown>

const problemFor = (status: number, body: unknown, request: HttpServerRequest.HttpServerRequest): Problem => {
  if (isObject(body) && typeof body["code"] === "string" && typeof body["detail"] === "string") {
    return body as Problem
  }
  if (status >= 500 && status !== 503) {
    return generic(500, "internal_error", "Internal error", "internal error")
  }
  const [code, title] = titles[status] ?? [`http_${status}`, `HTTP ${status}`]
  const detail =
    status === 400
      ? "The request could not be read: send a JSON body (Content-Type: application/json) that matches the endpoint."
      : status === 404
      ? `There is no resource at ${request.method} ${new URL(request.url, "http://localhost").pathname}.`
      : status === 405
        ? `${request.method} is not allowed here.`
        : `${title}.`
  return generic(status, code, title, detail)
}

const generic = (status: number, code: string, title: string, detail: string): Problem => ({
  type: errorTypeUri(code),
  title,
  status,
  code,
  detail
})

const problemResponse = (problem: Problem) => HttpServerResponse.jsonUnsafe(problem, { status: problem.status })

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
    case "AnyOf":
      return issue.issues.flatMap((inner) => flatten(inner, path))
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
const fromSchemaError = (issue: SchemaIssue.Issue): Problem => {
  const issues = flatten(issue, [])
  if (issues.length === 0 || issues.some((flat) => flat.path.length === 0)) {
    return generic(
      400,
      "malformed_request",
      "Malformed request",
      "The request body must be a JSON object sent as Content-Type: application/json."
    )
  }
  const errors = mostSpecific(issues.map((flat) => ({ field: flat.path.map(String).join("."), message: issueMessage(flat) })))
  const detail = `The request is invalid: ${errors.map((error) => `${error.field}: ${error.message}`).join("; ")}.`
  return { ...generic(422, "validation_failed", "Validation failed", detail), errors }
}

/**
 * Each field once, and only where it went wrong: a union or optional schema reports one value's failure once per
 * member, and again on the enclosing object ("ml_utility_config: has the wrong type" beside
 * "ml_utility_config.test_size: has the wrong type"), which says nothing the inner field does not.
 */
const mostSpecific = (errors: ReadonlyArray<FieldError>): ReadonlyArray<FieldError> => {
  const seen = new Set<string>()
  return errors.filter((error) => {
    const key = `${error.field}\u0000${error.message}`
    if (seen.has(key)) return false
    seen.add(key)
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const decoder = new TextDecoder()

const bodyJson = (response: HttpServerResponse.HttpServerResponse): unknown => {
  if (response.body._tag !== "Uint8Array") return undefined
  try {
    return JSON.parse(decoder.decode(response.body.body))
  } catch {
    return undefined
  }
}
