import canonicalize from "canonicalize"

/**
 * RFC 8785 (JSON Canonicalization Scheme), by the `canonicalize` package (the scheme's reference implementation for
 * JavaScript): members sorted by UTF-16 code units, no whitespace, numbers and strings as ECMAScript serializes them.
 * The lockfile pins its version; the RFC's examples in the unit tests guard the hashes against any change of output.
 */
export const canonicalJson = (value: unknown): string => {
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError(`a ${typeof value} has no JSON form`)
  return text
}
