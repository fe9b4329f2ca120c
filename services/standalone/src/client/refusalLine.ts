import { type HttpClientResponse } from "effect/http"
import { ProblemDetails } from "@synth/contracts"
import { Effect, Option, Schema } from "effect"
import { problemLine } from "../generate/refusal.ts"

const decodeProblem = Schema.decodeUnknownOption(ProblemDetails)

/**
 * The one line `synth` prints for an answer other than the one it asked for: the problem's detail with each field's
 * problem, or the status and `request` when the body is no problem (a proxy's page, an empty body).
 */
export const refusalLine = (response: HttpClientResponse.HttpClientResponse, request: string): Effect.Effect<string> =>
  response.json.pipe(
    Effect.map((body) => Option.map(decodeProblem(body), problemLine)),
    Effect.orElseSucceed(() => Option.none<string>()),
    Effect.map(Option.getOrElse(() => `the server answered ${response.status} to ${request}`))
  )
