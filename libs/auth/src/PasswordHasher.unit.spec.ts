import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { PasswordHasher } from "./PasswordHasher.ts"

const hashWith = (layer: typeof PasswordHasher.layer, password: string) =>
  Effect.flatMap(PasswordHasher, (hasher) => hasher.hash(password)).pipe(Effect.provide(layer))

describe("PasswordHasher at production cost", () => {
  it.live("hashes and verifies, and rejects a wrong password", () =>
    Effect.gen(function*() {
      const hasher = yield* PasswordHasher
      const stored = yield* hasher.hash("correct horse battery staple")
      expect(yield* hasher.verify("correct horse battery staple", stored)).toBe(true)
      expect(yield* hasher.verify("correct horse battery stapler", stored)).toBe(false)
      expect(hasher.needsRehash(stored)).toBe(false)
    }).pipe(Effect.provide(PasswordHasher.layer)))

  it.live("writes its parameters into the hash: scrypt$N$r$p$salt$hash, 16-byte salt, 64-byte key", () =>
    Effect.gen(function*() {
      const stored = yield* hashWith(PasswordHasher.layer, "a password of ours")
      const [scheme, N, r, p, salt, hash] = stored.split("$")
      expect([scheme, N, r, p]).toEqual(["scrypt", "32768", "8", "1"])
      expect(Buffer.from(salt!, "base64")).toHaveLength(16)
      expect(Buffer.from(hash!, "base64")).toHaveLength(64)
    }))

  it.live("hashes off the event loop: a timer fires while scrypt runs", () =>
    Effect.gen(function*() {
      const hasher = yield* PasswordHasher
      const finished: Array<string> = []
      yield* Effect.all([
        Effect.tap(hasher.hash("a password of ours"), () => Effect.sync(() => finished.push("hash"))),
        Effect.tap(Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5))), () => Effect.sync(() => finished.push("timer")))
      ], { concurrency: "unbounded" })
      expect(finished).toEqual(["timer", "hash"])
    }).pipe(Effect.provide(PasswordHasher.layer)))
})

describe("PasswordHasher", () => {
  it.live("salts every hash afresh", () =>
    Effect.gen(function*() {
      const hasher = yield* PasswordHasher
      const first = yield* hasher.hash("same password")
      const second = yield* hasher.hash("same password")
      expect(first).not.toBe(second)
      expect(first.split("$")[4]).not.toBe(second.split("$")[4])
      expect(yield* hasher.verify("same password", first)).toBe(true)
      expect(yield* hasher.verify("same password", second)).toBe(true)
    }).pipe(Effect.provide(PasswordHasher.InsecureFastForTests)))

  it.live("verifies hashes made with other parameters and flags them for re-hashing", () =>
    Effect.gen(function*() {
      const production = yield* hashWith(PasswordHasher.layer, "old password")
      const fast = yield* PasswordHasher
      expect(yield* fast.verify("old password", production)).toBe(true)
      expect(fast.needsRehash(production)).toBe(true)
      expect(fast.needsRehash(yield* fast.hash("old password"))).toBe(false)
      expect(fast.needsRehash("$2b$10$somebcrypthash")).toBe(true)
    }).pipe(Effect.provide(PasswordHasher.InsecureFastForTests)))

  it.live("treats differently encoded but equal Unicode passwords alike", () =>
    Effect.gen(function*() {
      const hasher = yield* PasswordHasher
      const stored = yield* hasher.hash("caf\u00e9 au lait!")
      expect(yield* hasher.verify("cafe\u0301 au lait!", stored)).toBe(true)
    }).pipe(Effect.provide(PasswordHasher.InsecureFastForTests)))

  it.live("refuses a stored value it did not write, as a defect", () =>
    Effect.gen(function*() {
      const hasher = yield* PasswordHasher
      for (const stored of ["", "plaintext", "scrypt$3$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAA==", "scrypt$1073741824$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAA=="]) {
        const exit = yield* Effect.exit(hasher.verify("password", stored))
        expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
      }
    }).pipe(Effect.provide(PasswordHasher.InsecureFastForTests)))
})
