import { BlobKey, BlobStore } from "@synth/blobstore"
import { isSealed, type PersonalData, type SealedValue, type UserId } from "@synth/contracts"
import { Context, Effect, Layer, Option, Result, Stream } from "effect"
import { generateUserKey, seal, unseal } from "./sealing.ts"

/**
 * The per-user keys that seal personal data in events (crypto-shredding, docs/audit.md). Each key is one blob,
 * `keys/users/<user id>`: outside the event log (which must never hold it) and outside the read-model database
 * (which `synth replay` deletes and rebuilds), in the store both runtimes already share (DATA_DIR/blobs or S3).
 * Forgetting a user removes the blob; from then on their sealed values reveal nothing, in the log, in backups of
 * it and in every copy a consumer made.
 */
export class UserKeys extends Context.Service<UserKeys>()("@synth/gateway/UserKeys", {
  make: Effect.gen(function* () {
    const blobs = yield* BlobStore
    const blobOf = (userId: string) => BlobKey.make("keys", "users", userId)

    /** Makes and stores the key of a new user; its blob is written before any event sealed with it. */
    const create = Effect.fn("UserKeys.create")(function* (userId: UserId) {
      const key = generateUserKey()
      yield* blobs.put(blobOf(userId), Stream.make(key))
      return key
    }, Effect.orDie)

    /** The user's key; none once the user is forgotten. */
    const find = Effect.fn("UserKeys.find")(function* (userId: string) {
      const chunks = yield* Stream.runCollect(blobs.get(blobOf(userId))).pipe(
        Effect.map(Option.some),
        Effect.catchTag("BlobNotFound", () => Effect.succeedNone)
      )
      return Option.map(chunks, (parts) => new Uint8Array(Buffer.concat(parts)))
    }, Effect.orDie)

    /** Crypto-shredding: what was sealed under the key can no longer be read. Idempotent. */
    const destroy = Effect.fn("UserKeys.destroy")(function* (userId: string) {
      yield* blobs.remove(blobOf(userId))
    }, Effect.orDie)

    const sealValue = (key: Uint8Array, userId: UserId, field: string, value: string): SealedValue =>
      seal(key, userId, field, value)

    /**
     * The clear value of a personal field: a plain (pre-sealing) value as it is, a sealed one opened with its
     * user's key. None when the key is gone (the user was forgotten) or the value does not open under it.
     */
    const reveal = Effect.fn("UserKeys.reveal")(function* (field: string, value: PersonalData) {
      if (!isSealed(value)) return Option.some(value.plain)
      const key = yield* find(value.keyId)
      if (Option.isNone(key)) return Option.none<string>()
      const opened = unseal(key.value, field, value)
      if (Result.isFailure(opened)) {
        yield* Effect.logError(`The sealed ${field} of user ${value.keyId} does not open under its key`)
        return Option.none<string>()
      }
      return Option.some(opened.success)
    })

    return { create, find, destroy, seal: sealValue, reveal } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
