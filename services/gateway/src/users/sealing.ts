import type { SealedValue, UserId } from "@synth/contracts"
import { Data, Result } from "effect"
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

/**
 * AES-256-GCM for the personal fields of events (crypto-shredding, docs/audit.md). A value is sealed under the key
 * of the user it belongs to, with a fresh random 96-bit IV, and the key id and field name as authenticated data:
 * a ciphertext copied into another field or another user's event does not open.
 */

export const keyBytes = 32
const ivBytes = 12
const tagBytes = 16

/** A fresh random user key. */
export const generateUserKey = (): Uint8Array => new Uint8Array(randomBytes(keyBytes))

/** The sealed value could not be opened: a different key, a different field or user, or altered bytes. */
export class UnsealFailed extends Data.TaggedError("UnsealFailed")<{ readonly field: string }> {}

const additionalData = (keyId: string, field: string) => Buffer.from(`synth/personal-data/v1/${keyId}/${field}`, "utf8")

const checkKey = (key: Uint8Array) => {
  if (key.byteLength !== keyBytes) throw new Error(`a user key has ${keyBytes} bytes, not ${key.byteLength}`)
}

export const seal = (key: Uint8Array, keyId: UserId, field: string, plaintext: string): SealedValue => {
  checkKey(key)
  const iv = randomBytes(ivBytes)
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: tagBytes })
  cipher.setAAD(additionalData(keyId, field))
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()])
  return { alg: "A256GCM", keyId, iv: iv.toString("base64url"), ciphertext: ciphertext.toString("base64url") }
}

export const unseal = (key: Uint8Array, field: string, sealed: SealedValue): Result.Result<string, UnsealFailed> => {
  checkKey(key)
  const bytes = Buffer.from(sealed.ciphertext, "base64url")
  const iv = Buffer.from(sealed.iv, "base64url")
  if (bytes.byteLength < tagBytes || iv.byteLength !== ivBytes) return Result.fail(new UnsealFailed({ field }))
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: tagBytes })
    decipher.setAAD(additionalData(sealed.keyId, field))
    decipher.setAuthTag(bytes.subarray(bytes.byteLength - tagBytes))
    const plaintext = Buffer.concat([decipher.update(bytes.subarray(0, bytes.byteLength - tagBytes)), decipher.final()])
    return Result.succeed(plaintext.toString("utf8"))
  } catch {
    return Result.fail(new UnsealFailed({ field }))
  }
}

/**
 * The read model's index of accounts by email: a SHA-256 of the normalised email, so the users table can be searched
 * by email without holding it in clear (the email itself stays sealed there, as in the log). Never written to the
 * log; the migration `0009_users_sealed_email` computes the same digest in SQL, keep the two in step.
 */
export const emailLookup = (normalisedEmail: string) =>
  createHash("sha256").update(`synth/user-email/${normalisedEmail}`, "utf8").digest("hex")
