import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { Effect } from "effect"

/** Deeper than any request body of the API needs (its deepest is four levels); far below what breaks anything. */
export const maxJsonDepth = 64

/**
 * Whether `text`, read as JSON, nests objects and arrays deeper than `max`: one pass over the characters, brackets
 * inside strings not counted. It does not validate; a malformed text is the decoder's to refuse.
 */
export const jsonNestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index++ // a backslash: the next character is escaped
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true
    } else if (code === 0x5d || code === 0x7d) depth--
  }
  return false
}

const isJson = (contentType: string | undefined) => contentType !== undefined && /^\s*application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)

/**
 * Refuses a JSON body nested deeper than maxJsonDepth with 400 before anything decodes it: the schema decoder's
 * error messages print the value they got, recursively, and a body thousands of levels deep overflows the stack
 * there (a 500). The body is read here once; the request keeps it for the handler.
 */
export const limitJsonDepth = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!isJson(request.headers["content-type"])) return yield* app
    const text = yield* Effect.option(request.text)
    if (text._tag === "Some" && jsonNestsDeeperThan(text.value, maxJsonDepth)) {
      return HttpServerResponse.jsonUnsafe(
        {
          type: "/errors/malformed_request",
          title: "Malformed request",
          status: 400,
          code: "malformed_request",
          detail: `The JSON body nests objects or arrays more than ${maxJsonDepth} levels deep. No request of this API needs that.`
        },
        { status: 400, contentType: "application/problem+json" }
      )
    }
    return yield* app
  })
