import { Option } from "effect"

/** scrypt's cost parameters plus the salt and key lengths; all of them are kept with each hash. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two; memory used is about 128 · N · r bytes. */
  readonly N: number
  readonly r: number
  readonly p: number
  readonly keyLength: number
  readonly saltLength: number
}

/** 2^15 · 8 · 128 B = 32 MiB and tens of milliseconds per hash: OWASP's scrypt recommendation for interactive logins. */
export const productionScrypt: ScryptParams = { N: 2 ** 15, r: 8, p: 1, keyLength: 64, saltLength: 16 }

/** Insecure by design: 1/32 of the production cost, only so test suites that register users stay fast. */
export const insecureFastScryptForTests: ScryptParams = { ...productionScrypt, N: 2 ** 10 }

export interface ScryptHash {
  readonly params: ScryptParams
  readonly salt: Buffer
  readonly hash: Buffer
}

/** `scrypt$N$r$p$<salt base64>$<hash base64>`: self-describing, so parameters can rise without breaking old hashes. */
export const encodeScryptHash = ({ hash, params, salt }: ScryptHash): string =>
  ["scrypt", params.N, params.r, params.p, salt.toString("base64"), hash.toString("base64")].join("$")

const storedPattern = /^scrypt\$(\d{1,10})\$(\d{1,4})\$(\d{1,4})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/

const isPowerOfTwo = (n: number) => n > 1 && Number.isSafeInteger(n) && (n & (n - 1)) === 0

/** None when the string is not a hash this module wrote (or its parameters are out of scrypt's range). */
export const parseScryptHash = (stored: string): Option.Option<ScryptHash> => {
  const match = storedPattern.exec(stored)
  if (match === null) return Option.none()
  const [, N, r, p, salt, hash] = match as unknown as [string, string, string, string, string, string]
  const params = {
    N: Number(N),
    r: Number(r),
    p: Number(p),
    keyLength: Buffer.from(hash, "base64").length,
    saltLength: Buffer.from(salt, "base64").length
  }
  // The caps keep a corrupted row from making verify allocate gigabytes or spin for minutes.
  const valid = isPowerOfTwo(params.N) && params.r >= 1 && params.p >= 1 && params.p <= 16 &&
    128 * params.N * params.r <= 2 ** 30 && params.keyLength >= 16 && params.saltLength >= 16
  return valid
    ? Option.some({ params, salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") })
    : Option.none()
}
