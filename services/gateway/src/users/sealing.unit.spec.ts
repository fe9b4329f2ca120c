import { SqlClient } from "effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { SealedValue, type UserId } from "@synth/contracts"
import { migrationSet, runMigrations } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { Effect, Layer, Option, Result, Schema } from "effect"
import { userMigrations } from "./migrations.ts"
import { emailLookup, generateUserKey, seal, unseal } from "./sealing.ts"
import { UserKeys } from "./UserKeys.ts"

const ada = "0192f0c0-0000-7000-8000-000000000001" as UserId
const grace = "0192f0c0-0000-7000-8000-000000000002" as UserId
const email = "ada.lovelace@example.com"

describe("sealing personal data (AES-256-GCM)", () => {
  it("opens what it sealed, with the key, field and user it was sealed for", () => {
    const key = generateUserKey()
    const sealed = seal(key, ada, "email", email)
    expect(Schema.is(SealedValue)(sealed)).toBe(true)
    expect(unseal(key, "email", sealed)).toStrictEqual(Result.succeed(email))
  })

  it("never shows the value: the ciphertext holds no trace of it, and sealing twice differs (random IV)", () => {
    const key = generateUserKey()
    const first = seal(key, ada, "email", email)
    const second = seal(key, ada, "email", email)
    expect(JSON.stringify(first)).not.toContain("ada")
    expect(Buffer.from(first.ciphertext, "base64url").toString("latin1")).not.toContain("lovelace")
    expect(first.iv).not.toBe(second.iv)
    expect(first.ciphertext).not.toBe(second.ciphertext)
  })

  it("opens nothing under another key: a destroyed key cannot be guessed back", () => {
    const sealed = seal(generateUserKey(), ada, "email", email)
    expect(Result.isFailure(unseal(generateUserKey(), "email", sealed))).toBe(true)
  })

  it("opens nothing moved to another field or claimed for another user (authenticated data)", () => {
    const key = generateUserKey()
    const sealed = seal(key, ada, "email", email)
    expect(Result.isFailure(unseal(key, "passwordHash", sealed))).toBe(true)
    expect(Result.isFailure(unseal(key, "email", { ...sealed, keyId: grace }))).toBe(true)
  })

  it("opens nothing altered: one flipped bit of the ciphertext or the IV fails the tag", () => {
    const key = generateUserKey()
    const sealed = seal(key, ada, "email", email)
    const bytes = Buffer.from(sealed.ciphertext, "base64url")
    bytes[0] = bytes[0]! ^ 1
    expect(Result.isFailure(unseal(key, "email", { ...sealed, ciphertext: bytes.toString("base64url") }))).toBe(true)
    const iv = Buffer.from(sealed.iv, "base64url")
    iv[0] = iv[0]! ^ 1
    expect(Result.isFailure(unseal(key, "email", { ...sealed, iv: iv.toString("base64url") }))).toBe(true)
    expect(Result.isFailure(unseal(key, "email", { ...sealed, ciphertext: "c2hvcnQ" }))).toBe(true)
  })

  it("refuses a key that is not 256 bits", () => {
    expect(() => seal(new Uint8Array(16), ada, "email", email)).toThrow(/32 bytes/)
  })
})

describe("UserKeys: one key per user, in the blob store", () => {
  const keysLayer = UserKeys.layer.pipe(Layer.provide(BlobStoreMemory))

  it.effect("reveals a sealed value while the key exists, nothing once it is destroyed", () =>
    Effect.gen(function* () {
      const keys = yield* UserKeys
      const key = yield* keys.create(ada)
      const sealed = keys.seal(key, ada, "email", email)
      expect(yield* keys.reveal("email", sealed)).toStrictEqual(Option.some(email))
      yield* keys.destroy(ada)
      expect(yield* keys.find(ada)).toStrictEqual(Option.none())
      expect(yield* keys.reveal("email", sealed)).toStrictEqual(Option.none())
      yield* keys.destroy(ada)
    }).pipe(Effect.provide(keysLayer)))

  it.effect("keeps users apart: destroying one key leaves the others", () =>
    Effect.gen(function* () {
      const keys = yield* UserKeys
      const adaSealed = keys.seal(yield* keys.create(ada), ada, "email", email)
      const graceSealed = keys.seal(yield* keys.create(grace), grace, "email", "grace@example.com")
      yield* keys.destroy(ada)
      expect(yield* keys.reveal("email", adaSealed)).toStrictEqual(Option.none())
      expect(yield* keys.reveal("email", graceSealed)).toStrictEqual(Option.some("grace@example.com"))
    }).pipe(Effect.provide(keysLayer)))

  it.effect("reveals a plain value (an event written before sealing) as it is, with no key", () =>
    Effect.gen(function* () {
      const keys = yield* UserKeys
      expect(yield* keys.reveal("email", { plain: email })).toStrictEqual(Option.some(email))
    }).pipe(Effect.provide(keysLayer)))
})

describe("the email lookup", () => {
  it("is a digest of the normalised email, never the email", () => {
    expect(emailLookup(email)).toMatch(/^[0-9a-f]{64}$/)
    expect(emailLookup(email)).not.toBe(emailLookup("grace@example.com"))
  })

  it.effect("is what migration 0009 computes for the accounts of v1 events, whose emails move into plain values", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* runMigrations([migrationSet("gateway", { "0001_users": userMigrations["0001_users"] })])
      yield* sql`INSERT INTO users (id, email, password_hash, created_at) VALUES (${ada}, ${email}, 'scrypt$hash', '2026-01-01T00:00:00Z')`
      yield* runMigrations([migrationSet("gateway", userMigrations)])
      const rows = yield* sql<{ readonly emailLookup: string; readonly email: unknown; readonly passwordHash: unknown }>`
        SELECT email_lookup AS "emailLookup", email, password_hash AS "passwordHash" FROM users`
      expect(rows).toStrictEqual([{ emailLookup: emailLookup(email), email: { plain: email }, passwordHash: { plain: "scrypt$hash" } }])
    }).pipe(Effect.provide(layerEmbeddedTest)), 120_000)
})
