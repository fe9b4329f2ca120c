import { Schema } from "effect"
import { UserId } from "../ids.ts"

const base64Url = (bytes: string) =>
  Schema.String.pipe(
    Schema.check(Schema.isPattern(/^[A-Za-z0-9_-]+$/)),
    Schema.annotate({ description: `base64url, ${bytes}` })
  )

/**
 * A personal value as the log holds it since the right to be forgotten (docs/audit.md, "Forgetting a user"):
 * AES-256-GCM under the key of the user it belongs to. The key lives outside the log and is destroyed when the user
 * is forgotten, after which the ciphertext reads as nothing (crypto-shredding); the log and its hash chains stay as
 * they were. The authenticated data binds the ciphertext to its key and field, so it cannot be moved elsewhere.
 */
export const SealedValue = Schema.Struct({
  alg: Schema.Literal("A256GCM"),
  keyId: UserId.annotate({ description: "the user whose key sealed it" }),
  iv: base64Url("12 random bytes").check(Schema.isBetweenLength(16, 16)),
  ciphertext: base64Url("the UTF-8 value encrypted, then the 16-byte authentication tag")
}).annotate({ identifier: "SealedValue" })
export type SealedValue = typeof SealedValue.Type

/** A personal value written in clear before values were sealed: only ever the upcast of an old event version. */
export const PlainValue = Schema.Struct({
  plain: Schema.String
}).annotate({ identifier: "PlainValue" })
export type PlainValue = typeof PlainValue.Type

/** Personal data in an event: sealed when written now, plain when read from an event written before sealing. */
export const PersonalData = Schema.Union([SealedValue, PlainValue]).annotate({ identifier: "PersonalData" })
export type PersonalData = typeof PersonalData.Type

export const isSealed = (value: PersonalData): value is SealedValue => "ciphertext" in value
