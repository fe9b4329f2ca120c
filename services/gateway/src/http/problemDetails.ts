import { HttpEffect, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { errorTypeUri, type ProblemDetails } from "@synth/contracts"
import { Cause, Effect } from "effect"
import { notMultipartDetail } from "../datasets/uploadParts.ts"
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
 * wraps: by the time a middleware sees the response, it has been sent. Request decoding failures are problems
 * already (the RequestValidation middleware, requestValidation.ts).
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
    return yield* limitJsonDepth(app).pipe(
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
  // HttpApi refuses a body of a content type the endpoint does not take before any handler runs; the API answers
  // that as it always did: a malformed request, or for an upload the missing file part.
  if (status === 415) return unsupportedMediaType(request)
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

const unsupportedMediaType = (request: HttpServerRequest.HttpServerRequest): Problem => {
  if (request.method === "POST" && new URL(request.url, "http://localhost").pathname === "/datasets/upload") {
    const contentType = request.headers["content-type"] ?? ""
    return generic(400, "missing_file", "Missing file", notMultipartDetail(contentType))
  }
  return generic(
    400,
    "malformed_request",
    "Malformed request",
    "The request body must be a JSON object sent as Content-Type: application/json."
  )
}

const generic = (status: number, code: string, title: string, detail: string): Problem => ({
  type: errorTypeUri(code),
  title,
  status,
  code,
  detail
})

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
