import { randomUUID } from "node:crypto"
import { createServer as createNodeServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"

/**
 * The gateway's Node HTTP server, with three guards that answer where the Effect application cannot, because it
 * never sees the request or would wait for it forever:
 *
 * - **Not ready yet.** The port opens when the server layer is built, before the services and the API's handler
 *   are; Node leaves a request with no `request` listener unanswered. Until the handler is attached (and again once
 *   it is detached at shutdown) every request gets 503 `service_unavailable` with `Retry-After`.
 * - **A multipart body without a boundary** (RFC 2046 §5.1.1 requires one) gets 400 `malformed_request`: the
 *   multipart parser throws on it where nothing can catch it. **A multipart body sent to a route that does not take
 *   one** gets 415 `unsupported_media_type`: the platform would parse it anyway (and fail, or wait, on a bad one).
 * - **A stalled body.** A request that stops sending its body for `bodyIdleTimeoutMs` gets 408 `request_timeout`
 *   and its connection is closed. The clock restarts with every chunk, so a large upload that keeps sending is never
 *   cut; only the body counts, so a slow answer (an upload waiting for ingestion) is not a stall.
 *
 * Each answer is the one error shape (RFC 9457 problem details) with an `X-Request-Id`. At shutdown, `drain` stops
 * taking requests (503 with Retry-After) and lets the ones in flight finish within a bound.
 */
export interface GuardOptions {
  readonly bodyIdleTimeoutMs: number
  /**
   * The media types a route's body may have (from the API's contract), or undefined for a route the API does not
   * have (the router answers those).
   */
  readonly bodyTypesOf?: (method: string, path: string) => ReadonlyArray<string> | undefined
}

const problem = (response: ServerResponse, status: number, code: string, title: string, detail: string, headers: Record<string, string> = {}) => {
  const requestId = randomUUID()
  const body = JSON.stringify({ type: `/errors/${code}`, title, status, code, detail, request_id: requestId })
  // The request's body may be unread (or never come): the connection is not reused after this answer.
  response.writeHead(status, {
    "content-type": "application/problem+json",
    "content-length": Buffer.byteLength(body),
    "x-request-id": requestId,
    connection: "close",
    ...headers
  })
  response.end(body)
}

const notReady = (_request: IncomingMessage, response: ServerResponse) =>
  problem(response, 503, "service_unavailable", "Service unavailable", "The service is starting or stopping. Retry in a moment.", {
    "retry-after": "1"
  })

/** `multipart/...` without a usable `boundary` parameter (1 to 70 characters, RFC 2046). */
const multipartWithoutBoundary = (contentType: string | undefined) => {
  if (contentType === undefined || !/^\s*multipart\//i.test(contentType)) return false
  const boundary = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType)
  const value = boundary?.[1] ?? boundary?.[2] ?? ""
  return value.length === 0 || value.length > 70
}

const isMultipart = (contentType: string | undefined) => contentType !== undefined && /^\s*multipart\//i.test(contentType)

const rejectUnexpectedMultipart = (request: IncomingMessage, response: ServerResponse, options: GuardOptions) => {
  if (!isMultipart(request.headers["content-type"]) || options.bodyTypesOf === undefined) return false
  const method = request.method ?? "GET"
  const path = (request.url ?? "/").split("?")[0]!
  const accepted = options.bodyTypesOf(method, path)
  if (accepted === undefined || accepted.some((type) => /^multipart\//i.test(type))) return false
  const takes = accepted.length === 0 ? "no body" : accepted.join(" or ")
  problem(
    response,
    415,
    "unsupported_media_type",
    "Unsupported media type",
    `${method} ${path.slice(0, 200)} takes ${takes}, not ${(request.headers["content-type"] ?? "").split(";")[0]!.trim().slice(0, 100)}.`,
    accepted.length === 0 ? {} : { accept: accepted.join(", ") }
  )
  return true
}

const rejectMalformedMultipart = (request: IncomingMessage, response: ServerResponse) => {
  if (!multipartWithoutBoundary(request.headers["content-type"])) return false
  problem(
    response,
    400,
    "malformed_request",
    "Malformed request",
    "The Content-Type is multipart without a boundary parameter (1 to 70 characters). Send multipart/form-data as an HTTP client writes it, e.g. curl -F file=@data.csv."
  )
  return true
}

/** Whether the request announces a body (Content-Length above 0, or chunked). */
const hasBody = (request: IncomingMessage) =>
  request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0

/**
 * Watches the bytes the connection has read while the body is incomplete. The request stream itself is not
 * touched (a listener on it would start reading the body before the handler does); `complete` turns true once the
 * parser has the whole body, whether or not the handler has read it.
 */
const watchBodyIdle = (request: IncomingMessage, response: ServerResponse, idleMs: number) => {
  if (!hasBody(request)) return
  const socket = request.socket
  let lastBytes = socket.bytesRead
  let lastChange = Date.now()
  const timer = setInterval(() => {
    if (request.complete || response.writableEnded || socket.destroyed) return clearInterval(timer)
    if (socket.bytesRead !== lastBytes) {
      lastBytes = socket.bytesRead
      lastChange = Date.now()
      return
    }
    if (Date.now() - lastChange < idleMs) return
    clearInterval(timer)
    if (response.headersSent) return socket.destroy()
    // The answer is flushed before the connection goes. The request is destroyed with it (which closes the socket):
    // Node never ends the body of a request whose response has finished, so a handler still reading it would wait
    // forever, and Effect 4's server keeps that fiber (its response is sent) until shutdown, which it then holds up.
    response.once("finish", () => request.destroy())
    problem(
      response,
      408,
      "request_timeout",
      "Request timeout",
      `The request body stopped arriving: nothing for ${Math.round(idleMs / 1000)} s. Send the whole body without pauses.`
    )
  }, Math.max(50, Math.min(1000, idleMs / 4)))
  timer.unref()
}

const shuttingDown = (_request: IncomingMessage, response: ServerResponse) =>
  problem(response, 503, "service_unavailable", "Service unavailable", "The service is shutting down. Retry in a moment.", {
    "retry-after": "1"
  })

/** The guards of one server: its `createServer` for NodeHttpServer.layer, and the drain that graceful shutdown runs. */
export interface ServerGuards {
  readonly createServer: () => Server
  /**
   * Stops taking requests (each new one gets 503 with Retry-After), waits up to `graceMs` for the requests in flight
   * to be answered, then closes every connection still open. Resolves with how many were still in flight.
   */
  readonly drain: (graceMs: number) => Promise<number>
}

/**
 * The guards above in front of whatever handler the platform attaches. They sit in `emit` rather than in a listener
 * of their own, because a request they answer must not reach the platform's listener at all.
 */
export const makeServerGuards = (options: GuardOptions): ServerGuards => {
  let server: Server | undefined
  let draining = false
  let inFlight = 0
  let onIdle: (() => void) | undefined

  const createServer = (): Server => {
    const created = createNodeServer()
    server = created
    const emit = created.emit.bind(created) as (event: string | symbol, ...args: Array<unknown>) => boolean
    created.emit = ((event: string | symbol, ...args: Array<unknown>) => {
      // Effect 4's Node server also listens to `checkContinue`, and Node then emits that instead of `request` for a
      // request sent with `Expect: 100-continue` (curl's large uploads): both are guarded alike.
      if (event === "request" || event === "checkContinue") {
        const [request, response] = args as [IncomingMessage, ServerResponse]
        if (draining) {
          shuttingDown(request, response)
          return true
        }
        if (created.listenerCount(event) === 0) {
          notReady(request, response)
          return true
        }
        if (rejectMalformedMultipart(request, response) || rejectUnexpectedMultipart(request, response, options)) return true
        watchBodyIdle(request, response, options.bodyIdleTimeoutMs)
        inFlight++
        response.once("close", () => {
          inFlight--
          if (draining) created.closeIdleConnections()
          if (inFlight === 0) onIdle?.()
        })
      }
      return emit(event, ...args)
    }) as Server["emit"]
    return created
  }

  const drain = async (graceMs: number) => {
    draining = true
    server?.closeIdleConnections()
    if (inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs)
        onIdle = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
    const cut = inFlight
    server?.closeAllConnections()
    return cut
  }

  return { createServer, drain }
}
