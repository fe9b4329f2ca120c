import { Data } from "effect"
import { errors } from "jose"

/** Why a token was refused. For logs and metrics only: every reason reaches the client as the same "invalid token". */
export type TokenRejectionReason =
  | "malformed"
  | "unsupported_algorithm"
  | "bad_signature"
  | "expired"
  | "wrong_issuer"
  | "wrong_audience"
  | "wrong_type"

export class TokenRejected extends Data.TaggedError("TokenRejected")<{
  readonly reason: TokenRejectionReason
  readonly cause?: unknown
}> {
  override get message() {
    return `token rejected: ${this.reason}`
  }
}

const claimReasons: Partial<Record<string, TokenRejectionReason>> = {
  iss: "wrong_issuer",
  aud: "wrong_audience",
  typ: "wrong_type"
}

/** Classifies what jose threw; anything it did not recognise as a token of ours is "malformed". */
export const fromJoseError = (cause: unknown): TokenRejected => {
  const reason: TokenRejectionReason = cause instanceof errors.JWTExpired
    ? "expired"
    : cause instanceof errors.JWSSignatureVerificationFailed
    ? "bad_signature"
    : cause instanceof errors.JOSEAlgNotAllowed
    ? "unsupported_algorithm"
    : cause instanceof errors.JWTClaimValidationFailed
    ? claimReasons[cause.claim] ?? "malformed"
    : "malformed"
  return new TokenRejected({ reason, cause })
}
