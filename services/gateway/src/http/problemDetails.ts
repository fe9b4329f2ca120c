import { HttpApp, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { errorTypeUri, type FieldError, type ProblemDetails } from "@synth/contracts"
import { Cause, Effect } from "effect"
import { recordRequest } from "./metrics.ts"
import { limitJsonDepth } from "./jsonDepth.ts"
import { currentRequestId, requestIdOf } from "./requestContext.ts"
import { routeTemplateOf } from "./routeTemplates.ts"

/**
 * Every response leaves through here: it gets an `X-Request-Id`, and every error response, whoever produced it
 * (a handler's typed error, request decoding, an unknown route, a defect), becomes one RFC 9457 problem document.
 * A defect is logged with its cause and answered with "internal error" and the request id only.
 *
 * The rewrite is a pre-response handler because the platform writes the response inside the app a middleware
 * wraps: by the time a middleware sees the response, it has been sent.
 */
export const withProblemDetails = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = requestIdOf(request)
    const arrived = performance.now()
    yield* HttpApp.appendPreResponseHandler((request, response) =>
      Effect.as(
        accessed(request, response.status, (performance.now() - arrived) / 1000, requestId),
        HttpServerResponse.setHeader(
          response.status >= 400 ? toProblemResponse(response, request, requestId) : response,
          "x-request-id",
          requestId
        )
      )
    )
    return yield* limitJsonDepth(app).pipe(
      Effect.tapErrorCause((cause) =>
        HttpServerError.causeResponseStripped(cause)[0].status >= 500 && !Cause.isInterruptedOnly(cause)
          ? Effect.logError("request failed", cause)
          : Effect.void
      ),
      Effect.locally(currentRequestId, requestId),
      Effect.annotateLogs({ requestId })
    )
  })

/**
 * One access-log line and one histogram observation per response. Only the route template is written, never the
 * path or the query string (ids, tokens in links), and nothing of the headers or bodies.
 */
const accessed = (request: HttpServerRequest.HttpServerRequest, status: number, seconds: number, requestId: string) => {
  const route = routeTemplateOf(request.method, request.url)
  return Effect.zipRight(
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
  let result = HttpServerResponse.unsafeJson(document, {
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
  if (isObject(body) && body["_tag"] === "HttpApiDecodeError") return fromDecodeError(body)
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

/**
 * The request did not match the endpoint's schemas. A body that is not JSON at all is malformed (400); a JSON
 * body with wrong or missing fields is a validation failure (422) listing each field.
 */
const fromDecodeError = (body: Record<string, unknown>): Problem => {
  const issues = Array.isArray(body["issues"]) ? (body["issues"] as ReadonlyArray<Record<string, unknown>>) : []
  if (issues.length === 0 || issues.some(isRootIssue)) {
    return generic(
      400,
      "malformed_request",
      "Malformed request",
      "The request body must be a JSON object sent as Content-Type: application/json."
    )
  }
  const errors = mostSpecific(issues.map((issue) => ({
    field: (issue["path"] as ReadonlyArray<unknown>).join("."),
    message: issueMessage(issue)
  })))
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
const issueMessage = (issue: Record<string, unknown>) => {
  switch (issue["_tag"]) {
    case "Missing":
      return "is missing"
    case "Unexpected":
      return "is not an accepted field"
    case "Refinement":
      return typeof issue["message"] === "string" ? issue["message"] : "is invalid"
    default:
      return "has the wrong type or format"
  }
}

const isRootIssue = (issue: Record<string, unknown>) => !Array.isArray(issue["path"]) || issue["path"].length === 0

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
