import { HttpServerRequest } from "effect/http"
import { Context, Effect, Option } from "effect"
import { v7 as uuidV7 } from "uuid"

/** The id of the request being served: echoed in `X-Request-Id`, put in error bodies and used as correlation id. */
export const currentRequestId = Context.Reference<string>("@synth/gateway/currentRequestId", { defaultValue: () => "none" })

const acceptableIncomingId = /^[A-Za-z0-9._:-]{8,128}$/

/** Reuses a caller's `X-Request-Id` when it is a sane token (so traces join up); otherwise mints one. */
export const requestIdOf = (request: HttpServerRequest.HttpServerRequest) => {
  const incoming = request.headers["x-request-id"]
  return incoming !== undefined && acceptableIncomingId.test(incoming) ? incoming : uuidV7()
}

/**
 * The client's address for per-address rate limits. Forwarded headers are not trusted: behind a proxy, configure
 * the proxy to limit, or extend this deliberately.
 */
export const clientAddress = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  Option.getOrElse(request.remoteAddress, () => "unknown")
)
