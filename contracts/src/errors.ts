import { Effect, Schema } from "effect"

/**
 * The one error shape: RFC 9457 problem details, served as `application/problem+json`.
 * `type` is a relative URI (resolved against the service's base address) naming the error code; `detail` says what
 * was wrong and what to do; `request_id` matches the `X-Request-Id` response header; `errors` lists field problems
 * of a validation failure. `_tag` mirrors `code` for typed clients (an extension member, allowed by RFC 9457).
 */
export const errorTypeUri = (code: string) => `/errors/${code}`

// The members every problem of one kind shares are filled in by the constructor: `new NotFound({ detail })`.
const withDefault = <S extends Schema.Top & Schema.WithoutConstructorDefault>(schema: S, value: S["~type.make.in"]) =>
  schema.pipe(Schema.withConstructorDefault(Effect.succeed(value)))

export const FieldError = Schema.Struct({
  field: Schema.String,
  message: Schema.String
}).annotate({ identifier: "FieldError" })
export type FieldError = typeof FieldError.Type

/**
 * A problem's wire shape: its `_tag`, the members every problem has and its own. The struct is named after the class
 * because the OpenAPI document describes the encoded side of each error class, which Effect 4 otherwise names
 * `<class>Encoded`. `request_id` is optional here only because handlers never set it: the gateway adds it to every
 * error response.
 */
const problem = <
  const Tag extends string,
  const Code extends string,
  const Status extends number,
  const Fields extends Schema.Struct.Fields = {}
>(tag: Tag, code: Code, status: Status, title: string, fields: Fields = {} as Fields) =>
  Schema.TaggedStruct(tag, {
    type: withDefault(Schema.String, errorTypeUri(code)),
    title: withDefault(Schema.String, title),
    status: withDefault(Schema.Literal(status), status),
    code: withDefault(Schema.Literal(code), code),
    detail: Schema.String,
    request_id: Schema.optionalKey(Schema.String),
    ...fields
  }).annotate({ identifier: tag })

export class MalformedRequest extends Schema.Error<MalformedRequest>("MalformedRequest")(
  problem("MalformedRequest", "malformed_request", 400, "Malformed request"),
  { httpApiStatus: 400 }
) {}

export class InvalidCredentials extends Schema.Error<InvalidCredentials>("InvalidCredentials")(
  problem("InvalidCredentials", "invalid_credentials", 401, "Invalid credentials"),
  { httpApiStatus: 401 }
) {}

export class InvalidToken extends Schema.Error<InvalidToken>("InvalidToken")(
  problem("InvalidToken", "invalid_token", 401, "Invalid token"),
  { httpApiStatus: 401 }
) {}

export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(
  problem("Forbidden", "forbidden", 403, "Forbidden"),
  { httpApiStatus: 403 }
) {}

export class NotFound extends Schema.Error<NotFound>("NotFound")(
  problem("NotFound", "not_found", 404, "Not found"),
  { httpApiStatus: 404 }
) {}

export class EmailTaken extends Schema.Error<EmailTaken>("EmailTaken")(
  problem("EmailTaken", "email_taken", 409, "Email already registered"),
  { httpApiStatus: 409 }
) {}

/** The resource exists but is not ready for this yet (a download while the dataset is still processing). */
export class NotCompleted extends Schema.Error<NotCompleted>("NotCompleted")(
  problem("NotCompleted", "not_completed", 409, "Not completed"),
  { httpApiStatus: 409 }
) {}

/** The job already ended (completed, failed or cancelled): there is nothing to stop. */
export class AlreadyFinished extends Schema.Error<AlreadyFinished>("AlreadyFinished")(
  problem("AlreadyFinished", "already_finished", 409, "Already finished"),
  { httpApiStatus: 409 }
) {}

export class ValidationFailed extends Schema.Error<ValidationFailed>("ValidationFailed")(
  problem("ValidationFailed", "validation_failed", 422, "Validation failed", { errors: Schema.Array(FieldError) }),
  { httpApiStatus: 422 }
) {}

/** No `file` part in the upload (or the body is not multipart/form-data). */
export class MissingFile extends Schema.Error<MissingFile>("MissingFile")(
  problem("MissingFile", "missing_file", 400, "Missing file"),
  { httpApiStatus: 400 }
) {}

export class FileTooLarge extends Schema.Error<FileTooLarge>("FileTooLarge")(
  problem("FileTooLarge", "file_too_large", 413, "File size exceeds the maximum limit", { max_file_size: Schema.Int }),
  { httpApiStatus: 413 }
) {}

export class UnsupportedEncoding extends Schema.Error<UnsupportedEncoding>("UnsupportedEncoding")(
  problem("UnsupportedEncoding", "unsupported_encoding", 415, "Character encoding not supported"),
  { httpApiStatus: 415 }
) {}

export class UnparseableFile extends Schema.Error<UnparseableFile>("UnparseableFile")(
  problem("UnparseableFile", "unparseable_file", 422, "Unable to parse file"),
  { httpApiStatus: 422 }
) {}

/** An empty file, or column names without a single data row. */
export class EmptyDataset extends Schema.Error<EmptyDataset>("EmptyDataset")(
  problem("EmptyDataset", "empty_dataset", 422, "Empty dataset"),
  { httpApiStatus: 422 }
) {}

/** Duplicate or blank column names. */
export class InvalidColumns extends Schema.Error<InvalidColumns>("InvalidColumns")(
  problem("InvalidColumns", "invalid_columns", 422, "Invalid columns"),
  { httpApiStatus: 422 }
) {}

/** Profiling could not analyze the dataset's table (corrupt or of a type the profiler cannot read). */
export class UnableToAnalyze extends Schema.Error<UnableToAnalyze>("UnableToAnalyze")(
  problem("UnableToAnalyze", "unable_to_analyze", 422, "Unable to analyze dataset"),
  { httpApiStatus: 422 }
) {}

/** target_epsilon missing, not a positive finite number, or outside the accepted range (dp-ctgan). */
export class InvalidEpsilon extends Schema.Error<InvalidEpsilon>("InvalidEpsilon")(
  problem("InvalidEpsilon", "invalid_epsilon", 422, "Invalid epsilon"),
  { httpApiStatus: 422 }
) {}

/**
 * A dp-ctgan request whose training could not meet target_epsilon with a useful amount of noise (the same test as
 * POST /generators/dp/validate-config); the detail names the remedy (fewer epochs, a larger batch_size).
 */
export class PrivacyBudgetExceeded extends Schema.Error<PrivacyBudgetExceeded>("PrivacyBudgetExceeded")(
  problem("PrivacyBudgetExceeded", "privacy_budget_exceeded", 422, "Privacy budget exceeded", {
    recommended_epochs: Schema.NullOr(Schema.Int),
    recommended_batch_size: Schema.NullOr(Schema.Int)
  }),
  { httpApiStatus: 422 }
) {}

export class RateLimited extends Schema.Error<RateLimited>("RateLimited")(
  problem("RateLimited", "rate_limited", 429, "Too many requests", { retry_after: Schema.Int }),
  { httpApiStatus: 429 }
) {}

export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("ServiceUnavailable")(
  problem("ServiceUnavailable", "service_unavailable", 503, "Service unavailable"),
  { httpApiStatus: 503 }
) {}

export class InternalError extends Schema.Error<InternalError>("InternalError")(
  problem("InternalError", "internal_error", 500, "Internal error"),
  { httpApiStatus: 500 }
) {}

/** The shape every error response has, for documentation and for clients that do not use the typed classes. */
export const ProblemDetails = Schema.Struct({
  type: Schema.String,
  title: Schema.String,
  status: Schema.Int,
  detail: Schema.String,
  code: Schema.String,
  request_id: Schema.String,
  errors: Schema.optionalKey(Schema.Array(FieldError))
}).annotate({ identifier: "ProblemDetails" })
export type ProblemDetails = typeof ProblemDetails.Type
