/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1: the scheme in any case, then one or more
 * spaces). Parsed here rather than taken from the platform's bearer decoding, which cuts the first seven characters
 * whatever the scheme says.
 */
export const bearerTokenOf = (authorization: string | undefined): string | undefined =>
  authorization === undefined ? undefined : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization)?.[1]
