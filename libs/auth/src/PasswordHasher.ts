import { Context, Effect, Layer, Option } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import {
  encodeScryptHash,
  insecureFastScryptForTests,
  parseScryptHash,
  productionScrypt,
  type ScryptParams
} from "./scryptFormat.ts"

const deriveKey = (password: string, salt: Buffer, { N, keyLength, p, r }: ScryptParams) =>
  Effect.callback<Buffer>((resume) => {
    // The callback form runs on libuv's thread pool: scryptSync would stall every request for the whole hash.
    // OpenSSL needs 128·r·(N + p + 2) bytes; Node's default limit (32 MiB) is just short of that at N = 2^15, r = 8.
    // NFKC: the same password typed on another keyboard or OS may arrive as different code points.
    scrypt(password.normalize("NFKC"), salt, keyLength, { N, r, p, maxmem: 128 * r * (N + p + 2) }, (error, key) =>
      resume(error === null ? Effect.succeed(key) : Effect.die(error)))
  })

const sameParams = (left: ScryptParams, right: ScryptParams) =>
  left.N === right.N && left.r === right.r && left.p === right.p && left.keyLength === right.keyLength &&
  left.saltLength === right.saltLength

const makePasswordHasher = (params: ScryptParams) => ({
  /** A fresh random salt each time; the result is `scrypt$N$r$p$<salt>$<hash>`. */
  hash: Effect.fn("PasswordHasher.hash")(function*(password: string) {
    const salt = randomBytes(params.saltLength)
    const hash = yield* deriveKey(password, salt, params)
    return encodeScryptHash({ params, salt, hash })
  }),

  /**
   * Checks a password against a stored hash with the parameters the hash was made with. A stored value this module
   * did not write is corrupt data, not a wrong password: that is a defect.
   */
  verify: Effect.fn("PasswordHasher.verify")(function*(password: string, stored: string) {
    const parsed = parseScryptHash(stored)
    if (Option.isNone(parsed)) return yield* Effect.die(new Error("stored password hash is not in scrypt$N$r$p$salt$hash form"))
    const { hash, params: storedParams, salt } = parsed.value
    const candidate = yield* deriveKey(password, salt, storedParams)
    return timingSafeEqual(candidate, hash)
  }),

  /** True when a hash was made with other parameters than today's: re-hash after the next successful login. */
  needsRehash: (stored: string): boolean =>
    Option.match(parseScryptHash(stored), { onNone: () => true, onSome: (parsed) => !sameParams(parsed.params, params) })
})

/** Password hashing with scrypt, a memory-hard KDF, at production cost (about 32 MiB per hash). */
export class PasswordHasher extends Context.Service<PasswordHasher>()("@synth/auth/PasswordHasher", {
  make: Effect.succeed(makePasswordHasher(productionScrypt))
}) {
  static readonly layer = Layer.effect(this, this.make)
  /** Insecure: far cheaper parameters, for tests that register or log in users. Never use it in a runtime. */
  static readonly InsecureFastForTests = Layer.succeed(
    PasswordHasher,
    PasswordHasher.of(makePasswordHasher(insecureFastScryptForTests))
  )
}
