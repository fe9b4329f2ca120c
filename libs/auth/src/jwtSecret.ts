import { Config, Data, Effect, Option, Redacted, Schema, SchemaIssue } from "effect"
import { randomBytes, randomUUID } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"

/** HS256 keys shorter than the hash output weaken it (RFC 7518 §3.2). */
export const minimumSecretBytes = 32

export const isLongEnough = (secret: Redacted.Redacted<string>) =>
  Buffer.byteLength(Redacted.value(secret), "utf8") >= minimumSecretBytes

export class JwtSecretFileError extends Data.TaggedError("JwtSecretFileError")<{
  readonly path: string
  readonly reason: string
  readonly cause?: unknown
}> {
  override get message() {
    return `JWT secret file ${this.path}: ${this.reason}`
  }
}

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined

/**
 * Writes a fresh secret unless the file exists. The secret is written and flushed under a temporary name, then
 * hard-linked into place: link() never replaces a file, so of two processes racing here exactly one wins, and
 * nobody can read a half-written secret.
 */
const createUnlessPresent = async (file: string) => {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${randomUUID()}.partial`
  try {
    const handle = await fs.open(temporary, "wx", 0o600)
    try {
      await handle.writeFile(randomBytes(minimumSecretBytes).toString("base64url"))
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.link(temporary, file).catch((error: unknown) => {
      if (errorCode(error) !== "EEXIST") throw error
    })
  } finally {
    await fs.rm(temporary, { force: true })
  }
}

const readSecret = (file: string) =>
  Effect.tryPromise({
    try: () => fs.readFile(file, "utf8"),
    catch: (cause) => new JwtSecretFileError({ path: file, reason: "could not read it", cause })
  }).pipe(Effect.map((text) => Redacted.make(text.trim())))

/**
 * The embedded runtime's secret: generated once (32 random bytes, base64url), kept in a file only this user can
 * read, and read back on every start so tokens survive restarts. Copy it into JWT_SECRET to keep sessions valid
 * when moving to the distributed runtime.
 */
export const loadOrCreateSecretFile = Effect.fn("loadOrCreateSecretFile")(function*(file: string) {
  const fail = (reason: string) => (cause: unknown) => new JwtSecretFileError({ path: file, reason, cause })
  const secret = yield* readSecret(file).pipe(
    Effect.catchIf((error) => errorCode(error.cause) === "ENOENT", () =>
      Effect.tryPromise({ try: () => createUnlessPresent(file), catch: fail("could not create it") }).pipe(
        Effect.andThen(readSecret(file))
      ))
  )
  if (!isLongEnough(secret)) {
    return yield* new JwtSecretFileError({
      path: file,
      reason: `holds fewer than ${minimumSecretBytes} bytes; delete it to generate a new secret (this ends all sessions)`
    })
  }
  const { mode } = yield* Effect.tryPromise({ try: () => fs.stat(file), catch: fail("could not stat it") })
  if ((mode & 0o077) !== 0) {
    yield* Effect.logWarning(`JWT secret file ${file} is readable by other users; run chmod 600 on it`)
  }
  return secret
})

/** JWT_SECRET when set (the distributed runtime must set it); otherwise the secret file under DATA_DIR. */
export const jwtSecretFromConfig = Effect.gen(function*() {
  const configured = yield* Config.Redacted("JWT_SECRET").pipe(
    Config.mapEffect((secret) =>
      isLongEnough(secret)
        ? Effect.succeed(secret)
        : Effect.fail(
          new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({
            message: `JWT_SECRET must be at least ${minimumSecretBytes} bytes long; generate one with: openssl rand -base64 32`
          })))
        )
    ),
    Config.option
  )
  if (Option.isSome(configured)) return configured.value
  const dataDir = yield* Config.String("DATA_DIR").pipe(Config.withDefault("./data"))
  return yield* loadOrCreateSecretFile(path.join(dataDir, "secrets", "jwt-secret"))
})
