import { type HttpClientError } from "effect/http"
import { type FieldError, ProblemDetails } from "@synth/contracts"
import { Effect, Option, Schema } from "effect"
import { GenerationFailed } from "./errors.ts"

/**
 * What a typed client fails with: a problem of the contracts (the server's refusal to decode the request among them:
 * the service answers it as a problem), a transport or status error, or an answer it cannot decode.
 */
export type ClientError =
  | { readonly detail: string; readonly errors?: ReadonlyArray<FieldError> }
  | HttpClientError.HttpClientError
  | Schema.SchemaError

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

/** `num_rows: must be ...`; a message that already names its field (`target_epsilon is required ...`) as it is. */
const fieldProblem = (error: FieldError) =>
  `${error.message.startsWith(error.field) ? error.message : `${error.field}: ${error.message}`}.`

/**
 * A problem's detail on one line. A validation failure's detail points at its `errors[]`, which a person at a
 * terminal cannot see, so each field's problem follows it.
 */
export const problemLine = (problem: { readonly detail: string; readonly errors?: ReadonlyArray<FieldError> | undefined }) =>
  oneLine([problem.detail, ...(problem.errors ?? []).map(fieldProblem)].join(" "))

/** fetch wraps the reason (ECONNREFUSED, a DNS failure) in causes: the innermost one names it. */
const innermostMessage = (error: Error): string =>
  error.cause instanceof Error ? innermostMessage(error.cause) : error.message

const decodeProblem = Schema.decodeUnknownOption(ProblemDetails)

/** A status the endpoint does not declare (a 400 or a 500, say) still carries a problem: its detail, when it can be read. */
const undeclaredStatus = (error: HttpClientError.StatusCodeError) =>
  error.response.json.pipe(
    Effect.map((body) => Option.map(decodeProblem(body), problemLine)),
    Effect.orElseSucceed(() => Option.none<string>()),
    Effect.map(Option.getOrElse(() => `the server answered ${error.response.status} to ${error.methodAndUrl}`))
  )

/** The one line `synth` prints for a request to the service at `baseUrl` that did not succeed. */
export const refusal = (baseUrl: string) => (error: ClientError): Effect.Effect<GenerationFailed> => {
  if ("detail" in error) return Effect.succeed(new GenerationFailed({ message: problemLine(error) }))
  if (error._tag === "SchemaError") {
    return Effect.succeed(new GenerationFailed({ message: oneLine(`the answer of ${baseUrl} was not what this synth expects: ${error.message}`) }))
  }
  const { reason } = error
  if (reason._tag === "StatusCodeError") {
    return Effect.map(undeclaredStatus(reason), (message) => new GenerationFailed({ message }))
  }
  if (reason._tag === "DecodeError" || reason._tag === "EmptyBodyError") {
    return Effect.succeed(new GenerationFailed({ message: `the answer of ${baseUrl} could not be read: ${error.message}` }))
  }
  return Effect.succeed(new GenerationFailed({ message: `could not reach ${baseUrl}: ${innermostMessage(error)}` }))
}

/** `request` with its failures turned into the one line `synth` prints. */
export const explainFailure = (baseUrl: string) => <A, R>(request: Effect.Effect<A, ClientError, R>) =>
  Effect.catch(request, (error) => Effect.flatMap(refusal(baseUrl)(error), Effect.fail))
