// Black-box end-to-end tests of accounts, tokens, errors, public endpoints, CORS and rate limits, against the
// standalone runtime started with Node. Two servers: one with generous limits for everything but the rate-limit
// tests, one with limits of 5 a minute.
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { SynthApi } from "@synth/contracts"
import { Effect } from "effect"
import { base64url, SignJWT } from "jose"
import { randomBytes, randomUUID } from "node:crypto"
import { bearer, goodPassword, http, type RawResponse, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"

/** The server's HS256 key, so tests can sign tokens of their own (expired ones, forged ones). */
const jwtSecret = "e2e-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
const allowedOrigin = "https://app.example.com"
const otherAllowedOrigin = "https://admin.example.com"
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const isoUtcPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

let server: RunningServer
let limited: RunningServer

beforeAll(async () => {
  // Both start at once: each start is mostly waiting on its own process.
  const [main, rateLimited] = await Promise.allSettled([
    startServer({
      runtime: "node",
      env: {
        JWT_SECRET: jwtSecret,
        // The list is comma-separated; a space after the comma is what people write.
        ALLOWED_ORIGINS: `${allowedOrigin}, ${otherAllowedOrigin}`,
        AUTH_RATE_LIMIT_PER_MINUTE: "10000",
        RATE_LIMIT_PER_MINUTE: "10000",
        READ_YOUR_WRITES_TIMEOUT: "60 seconds"
      },
      readyTimeoutMs: 150_000
    }),
    startServer({
      runtime: "node",
      env: { AUTH_RATE_LIMIT_PER_MINUTE: "5", RATE_LIMIT_PER_MINUTE: "5", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
      readyTimeoutMs: 150_000
    })
  ])
  if (main.status === "fulfilled") server = main.value
  if (rateLimited.status === "fulfilled") limited = rateLimited.value
  for (const outcome of [main, rateLimited]) if (outcome.status === "rejected") throw outcome.reason
}, 200_000)

afterAll(async () => {
  await Promise.all([server?.stop("SIGTERM", 60_000), limited?.stop("SIGTERM", 60_000)])
}, 90_000)

// ---------------------------------------------------------------------------------------------------------------
// helpers

interface TokenPair {
  readonly access_token: string
  readonly refresh_token: string
  readonly token_type: string
  readonly expires_in: number
}

interface Profile {
  readonly id: string
  readonly email: string
  readonly created_at: string
  readonly roles: ReadonlyArray<string>
}

const url = (path: string, on: RunningServer = server) => `${on.baseUrl}${path}`

const registerRaw = (email: string, password = goodPassword, on: RunningServer = server, localAddress?: string) =>
  http(url("/auth/register", on), {
    body: { email, password },
    ...(localAddress === undefined ? {} : { localAddress })
  })

const loginRaw = (email: string, password = goodPassword, on: RunningServer = server, localAddress?: string) =>
  http(url("/auth/login", on), {
    body: { email, password },
    ...(localAddress === undefined ? {} : { localAddress })
  })

const refreshRaw = (token: string, on: RunningServer = server) =>
  http(url("/auth/refresh", on), { method: "POST", headers: bearer(token) })

const meRaw = (token: string, on: RunningServer = server) => http(url("/auth/me", on), { headers: bearer(token) })

const ok = <A>(response: RawResponse, status = 200): A => {
  expect(response.status, response.text).toBe(status)
  return response.json as A
}

/** Registers a fresh account and logs in: the user's id, email and first token pair. */
const signUp = async (label: string, on: RunningServer = server, localAddress?: string) => {
  const email = uniqueEmail(label)
  const user = ok<{ readonly id: string }>(await registerRaw(email, goodPassword, on, localAddress), 201)
  const tokens = ok<TokenPair>(await loginRaw(email, goodPassword, on, localAddress))
  return { id: user.id, email, tokens }
}

/** The RFC 9457 shape every error has, with the request id of the body equal to the X-Request-Id header. */
const expectProblem = (response: RawResponse, status: number, code: string) => {
  expect(response.status, response.text).toBe(status)
  expect(response.header("content-type")).toMatch(/^application\/problem\+json\b/)
  const requestId = response.header("x-request-id")
  expect(requestId).toMatch(/\S{8,}/)
  const body = response.json as Record<string, unknown>
  expect(body).toMatchObject({
    type: `/errors/${code}`,
    title: expect.stringMatching(/\S/),
    status,
    detail: expect.stringMatching(/\S/),
    code,
    request_id: requestId
  })
  return body
}

/** 401 invalid_token, with the RFC 6750 challenge. */
const expectInvalidToken = (response: RawResponse) => {
  const body = expectProblem(response, 401, "invalid_token")
  expect(response.header("www-authenticate")).toMatch(/^Bearer\b.*\berror="invalid_token"/)
  return body
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** Signs a token like the server's access tokens; every part can be overridden to forge a bad one. */
const signToken = (options: {
  readonly subject: string
  readonly secret?: string
  readonly alg?: string
  readonly claims?: Record<string, unknown>
  readonly issuer?: string
  readonly audience?: string
  readonly issuedAt?: number
  readonly expiresAt?: number
}) => {
  const issuedAt = options.issuedAt ?? nowSeconds()
  return new SignJWT({ token_use: "access", ...options.claims })
    .setProtectedHeader({ alg: options.alg ?? "HS256", typ: "JWT" })
    .setIssuer(options.issuer ?? "synth")
    .setAudience(options.audience ?? "synth-api")
    .setSubject(options.subject)
    .setJti(randomBytes(16).toString("base64url"))
    .setIssuedAt(issuedAt)
    .setExpirationTime(options.expiresAt ?? issuedAt + 900)
    .sign(new TextEncoder().encode(options.secret ?? jwtSecret))
}

const decodePart = (part: string) => JSON.parse(new TextDecoder().decode(base64url.decode(part))) as Record<string, unknown>
const encodePart = (value: unknown) => base64url.encode(JSON.stringify(value))

/** Replaces one character in the middle of a base64url segment (never the last one, whose low bits may be unused). */
const flipMiddleCharacter = (segment: string) => {
  const index = Math.floor(segment.length / 2)
  const replacement = segment[index] === "A" ? "B" : "A"
  return segment.slice(0, index) + replacement + segment.slice(index + 1)
}

/** The typed client derived from the contracts, optionally sending an access token. */
const typedClient = (baseUrl: string, accessToken?: string) =>
  HttpApiClient.make(SynthApi, {
    baseUrl,
    ...(accessToken === undefined
      ? {}
      : { transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(accessToken)) })
  })

// ---------------------------------------------------------------------------------------------------------------

describe("accounts and tokens", () => {
  it.live("register → login → /auth/me → refresh → /auth/me, through the typed client of the contracts", () =>
    Effect.gen(function* () {
      const client = yield* typedClient(server.baseUrl)
      const email = `Typed.${uniqueEmail("Client")}`.replace("example.com", "Example.COM")
      const registered = yield* client.auth.register({ payload: { email, password: goodPassword } })
      expect(registered.email).toBe(email.toLowerCase())
      expect(registered.id).toMatch(uuidPattern)

      const tokens = yield* client.auth.login({ payload: { email: email.toLowerCase(), password: goodPassword } })
      expect(tokens).toMatchObject({ token_type: "bearer", expires_in: 900 })

      const me = yield* (yield* typedClient(server.baseUrl, tokens.access_token)).account.me()
      expect(me).toEqual({ id: registered.id, email: registered.email, created_at: registered.created_at, roles: ["user"] })

      const rotated = yield* client.auth.refresh({ headers: { authorization: `Bearer ${tokens.refresh_token}` } })
      expect(rotated.access_token).not.toBe(tokens.access_token)
      expect(rotated.refresh_token).not.toBe(tokens.refresh_token)
      expect(yield* (yield* typedClient(server.baseUrl, rotated.access_token)).account.me()).toEqual(me)

      // Problem documents decode into the contracts' typed errors.
      const anonymous = yield* Effect.flip(client.account.me())
      expect(anonymous).toMatchObject({ _tag: "InvalidToken", code: "invalid_token", status: 401 })
      const taken = yield* Effect.flip(client.auth.register({ payload: { email, password: goodPassword } }))
      expect(taken).toMatchObject({ _tag: "EmailTaken", code: "email_taken", status: 409 })
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it("answers with exactly the documented bodies, email normalised to lower case", async () => {
    const email = uniqueEmail("wire")
    const mixedCase = `  ${email.slice(0, 1).toUpperCase()}${email.slice(1).replace("example.com", "Example.COM")} `

    const registration = await registerRaw(mixedCase)
    const registered = ok<Record<string, unknown>>(registration, 201)
    expect(registration.header("content-type")).toMatch(/^application\/json\b/)
    expect(Object.keys(registered).sort()).toEqual(["created_at", "email", "id"])
    expect(registered["id"]).toMatch(uuidPattern)
    expect(registered["email"]).toBe(email)
    expect(registered["created_at"]).toMatch(isoUtcPattern)
    expect(Math.abs(Date.parse(registered["created_at"] as string) - Date.now())).toBeLessThan(60_000)

    const login = ok<Record<string, unknown>>(await loginRaw(email.toUpperCase()))
    expect(Object.keys(login).sort()).toEqual(["access_token", "expires_in", "refresh_token", "token_type"])
    expect(login).toMatchObject({ token_type: "bearer", expires_in: 900 })
    const pair = login as unknown as TokenPair
    expect(pair.access_token.split(".")).toHaveLength(3)
    expect(pair.refresh_token.split(".")).toHaveLength(3)
    expect(pair.access_token).not.toBe(pair.refresh_token)

    const meResponse = await meRaw(pair.access_token)
    const me = ok<Record<string, unknown>>(meResponse)
    expect(meResponse.header("content-type")).toMatch(/^application\/json\b/)
    expect(me).toStrictEqual({
      id: registered["id"],
      email,
      created_at: registered["created_at"],
      roles: ["user"]
    })

    const rotated = ok<TokenPair>(await refreshRaw(pair.refresh_token))
    expect(Object.keys(rotated).sort()).toEqual(["access_token", "expires_in", "refresh_token", "token_type"])
    expect(rotated).toMatchObject({ token_type: "bearer", expires_in: 900 })
    expect(rotated.access_token).not.toBe(pair.access_token)
    expect(rotated.refresh_token).not.toBe(pair.refresh_token)
    expect(ok(await meRaw(rotated.access_token))).toStrictEqual(me)
  })
})

describe("bad tokens are refused with 401 invalid_token", () => {
  let user: Awaited<ReturnType<typeof signUp>>
  let profile: Profile

  beforeAll(async () => {
    user = await signUp("tokens")
    profile = ok<Profile>(await meRaw(user.tokens.access_token))
  })

  it("no Authorization header, an empty bearer, another scheme, garbage", async () => {
    expectInvalidToken(await http(url("/auth/me")))
    expectInvalidToken(await http(url("/auth/me"), { headers: { authorization: "Bearer " } }))
    expectInvalidToken(await http(url("/auth/me"), { headers: { authorization: "Basic dXNlcjpwYXNzd29yZA==" } }))
    expectInvalidToken(await meRaw("not-a-jwt"))
    expectInvalidToken(await meRaw("a.b.c"))
  })

  it("a tampered signature and, separately, a tampered payload", async () => {
    const [header, payload, signature] = user.tokens.access_token.split(".") as [string, string, string]
    expectInvalidToken(await meRaw(`${header}.${payload}.${flipMiddleCharacter(signature)}`))

    const claims = decodePart(payload)
    const longer = encodePart({ ...claims, exp: (claims["exp"] as number) + 86_400 })
    expectInvalidToken(await meRaw(`${header}.${longer}.${signature}`))
    const someoneElse = encodePart({ ...claims, sub: randomUUID() })
    expectInvalidToken(await meRaw(`${header}.${someoneElse}.${signature}`))

    // The untampered token still works: the refusals above are about the changes.
    expect(ok(await meRaw(user.tokens.access_token))).toEqual(profile)
  })

  it("an expired access token (signed here with the server's key and the real claims)", async () => {
    // Control: the same recipe with a lifetime ahead is accepted, so the expired one fails only for its expiry.
    expect(ok(await meRaw(await signToken({ subject: user.id })))).toEqual(profile)

    const issuedAt = nowSeconds() - 3_600
    const expired = await signToken({ subject: user.id, issuedAt, expiresAt: issuedAt + 900 })
    expectInvalidToken(await meRaw(expired))
    // Expired a minute ago: well past any clock tolerance.
    const justExpired = await signToken({ subject: user.id, issuedAt: nowSeconds() - 960, expiresAt: nowSeconds() - 60 })
    expectInvalidToken(await meRaw(justExpired))
  })

  it("alg none, another key, HS512 with the right key, a wrong issuer or audience, no token_use, an unknown user", async () => {
    const [, payload] = user.tokens.access_token.split(".") as [string, string, string]
    const none = `${encodePart({ alg: "none", typ: "JWT" })}.${payload}.`
    expectInvalidToken(await meRaw(none))

    const forged = [
      await signToken({ subject: user.id, secret: "another-secret-that-is-long-enough-for-hs256!" }),
      await signToken({ subject: user.id, alg: "HS512" }),
      await signToken({ subject: user.id, issuer: "someone-else" }),
      await signToken({ subject: user.id, audience: "another-api" }),
      await signToken({ subject: user.id, claims: { token_use: undefined } }),
      await signToken({ subject: randomUUID() })
    ]
    for (const token of forged) expectInvalidToken(await meRaw(token))
  })

  it("a refresh token on /auth/me, an access token on /auth/refresh", async () => {
    const fresh = ok<TokenPair>(await loginRaw(user.email))
    expectInvalidToken(await meRaw(fresh.refresh_token))
    expectInvalidToken(await refreshRaw(fresh.access_token))
    expectInvalidToken(await http(url("/auth/refresh"), { method: "POST" }))
    // Neither mistake spent anything: the refresh token still rotates once.
    ok<TokenPair>(await refreshRaw(fresh.refresh_token))
  })

  it("refresh tokens signed here with the server's key: never issued, expired, or of an unknown user", async () => {
    const refreshClaims = () => ({ token_use: "refresh", fam: randomBytes(16).toString("base64url") })
    // Well-formed and correctly signed, but the server never issued it: its id is in no read model.
    expectInvalidToken(await refreshRaw(await signToken({ subject: user.id, claims: refreshClaims() })))
    const issuedAt = nowSeconds() - 40 * 86_400
    expectInvalidToken(
      await refreshRaw(await signToken({ subject: user.id, claims: refreshClaims(), issuedAt, expiresAt: issuedAt + 30 * 86_400 }))
    )
    expectInvalidToken(await refreshRaw(await signToken({ subject: randomUUID(), claims: refreshClaims() })))
    // A real refresh token whose claims were edited (another family) no longer verifies.
    const real = ok<TokenPair>(await loginRaw(user.email)).refresh_token
    const [header, payload, signature] = real.split(".") as [string, string, string]
    const otherFamily = encodePart({ ...decodePart(payload), fam: randomBytes(16).toString("base64url") })
    expectInvalidToken(await refreshRaw(`${header}.${otherFamily}.${signature}`))
    ok<TokenPair>(await refreshRaw(real))
  })

  // Regression: @effect/platform's bearer decoder slices `"Bearer ".length` characters without checking the scheme,
  // so the gateway parses the header itself (services/gateway/src/http/bearer.ts): `Bearer`, any case, one or more
  // spaces (RFC 6750 §2.1), then the token.
  it("the Authorization header of /auth/me must use the Bearer scheme, as RFC 6750 defines it", async () => {
    const token = user.tokens.access_token
    for (const authorization of [`Digest ${token}`, `Beaver ${token}`, `XXXXXXX${token}`, `Basic ${token}`, token]) {
      const response = await http(url("/auth/me"), { headers: { authorization } })
      expect.soft(response.status, `"${authorization.slice(0, 10)}…" must be refused: ${response.text}`).toBe(401)
    }
    for (const authorization of [`bearer ${token}`, `BEARER ${token}`, `Bearer  ${token}`]) {
      const response = await http(url("/auth/me"), { headers: { authorization } })
      expect.soft(response.status, `"${authorization.slice(0, 10)}…" must be accepted: ${response.text}`).toBe(200)
    }
  })

  it("concurrent refreshes with one refresh token: exactly one gets a new pair", async () => {
    const pair = ok<TokenPair>(await loginRaw(user.email))
    const answers = await Promise.all(Array.from({ length: 4 }, () => refreshRaw(pair.refresh_token)))
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses).toEqual([200, 401, 401, 401])
    for (const answer of answers) if (answer.status === 401) expectInvalidToken(answer)
  })

  it("a refresh token reused after rotation is refused and revokes its whole family", async () => {
    const first = ok<TokenPair>(await loginRaw(user.email))
    const second = ok<TokenPair>(await refreshRaw(first.refresh_token))
    const third = ok<TokenPair>(await refreshRaw(second.refresh_token))

    expectInvalidToken(await refreshRaw(first.refresh_token))
    // The reuse revoked the family: the newest refresh token, never used, no longer works either.
    expectInvalidToken(await refreshRaw(third.refresh_token))
    expectInvalidToken(await refreshRaw(second.refresh_token))

    // Other logins of the same user are other families and keep working.
    const other = ok<TokenPair>(await loginRaw(user.email))
    ok<TokenPair>(await refreshRaw(other.refresh_token))
  })
})

describe("error responses", () => {
  it("a duplicate registration, in another letter case, is 409 email_taken", async () => {
    const email = uniqueEmail("duplicate")
    ok(await registerRaw(email), 201)
    const body = expectProblem(await registerRaw(email.toUpperCase(), "another password entirely"), 409, "email_taken")
    expect(body["detail"]).toContain(email)
  })

  it("concurrent registrations of one email, in different letter cases: exactly one 201", async () => {
    const email = uniqueEmail("race")
    const variants = [email, email.toUpperCase(), ` ${email}`, email.replace("race", "RACE"), email, email.toUpperCase()]
    const answers = await Promise.all(variants.map((variant) => registerRaw(variant)))
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409])
    for (const answer of answers) if (answer.status === 409) expectProblem(answer, 409, "email_taken")
    ok<TokenPair>(await loginRaw(email))
  })

  it("a wrong password and an unknown email are the same 401 invalid_credentials", async () => {
    const email = uniqueEmail("credentials")
    ok(await registerRaw(email), 201)
    const wrong = await loginRaw(email, "not the right password")
    const wrongBody = expectProblem(wrong, 401, "invalid_credentials")
    const unknown = await loginRaw(uniqueEmail("nobody"), goodPassword)
    const unknownBody = expectProblem(unknown, 401, "invalid_credentials")
    expect(unknownBody["detail"]).toBe(wrongBody["detail"])
    expect(unknownBody["title"]).toBe(wrongBody["title"])
    for (const response of [wrong, unknown]) expect(response.header("www-authenticate")).toMatch(/^Bearer\b/)
  })

  it("invalid bodies are 422 validation_failed naming the field", async () => {
    const fieldsOf = (body: Record<string, unknown>) =>
      (body["errors"] as ReadonlyArray<{ readonly field: string; readonly message: string }>).map((error) => {
        expect(error.message).toMatch(/\S/)
        return error.field
      })
    const cases: ReadonlyArray<readonly [path: string, body: unknown, field: string]> = [
      ["/auth/register", { email: uniqueEmail("short"), password: "123456789" }, "password"],
      ["/auth/register", { email: "not-an-email", password: goodPassword }, "email"],
      ["/auth/register", { email: "ada@example", password: goodPassword }, "email"],
      ["/auth/register", { password: goodPassword }, "email"],
      ["/auth/register", { email: uniqueEmail("nopassword") }, "password"],
      ["/auth/register", { email: 42, password: goodPassword }, "email"],
      ["/auth/login", { email: uniqueEmail("login") }, "password"],
      ["/auth/login", { email: "nobody", password: goodPassword }, "email"]
    ]
    for (const [path, body, field] of cases) {
      const problem = expectProblem(await http(url(path), { body }), 422, "validation_failed")
      expect(fieldsOf(problem), JSON.stringify(body)).toContain(field)
    }
    const empty = expectProblem(await http(url("/auth/register"), { body: {} }), 422, "validation_failed")
    expect(fieldsOf(empty).length).toBeGreaterThan(0)
    for (const field of fieldsOf(empty)) expect(["email", "password"]).toContain(field)

    // The one rule the schema cannot see: the password must not be the email address.
    const email = uniqueEmail("same")
    const same = expectProblem(await registerRaw(email, email), 422, "validation_failed")
    expect(fieldsOf(same)).toContain("password")
  })

  it("a body that is not JSON is 400 malformed_request", async () => {
    for (const path of ["/auth/register", "/auth/login"]) {
      expectProblem(
        await http(url(path), { body: '{"email": "ada@example.com", "password": ', headers: { "content-type": "application/json" } }),
        400,
        "malformed_request"
      )
    }
  })

  it("an error never quotes the submitted values back (they may be passwords)", async () => {
    const secret = "Never-Echo-This-Secret-1"
    const asText = await http(url("/auth/login"), {
      body: JSON.stringify({ email: "ada@example.com", password: secret }),
      headers: { "content-type": "text/plain" }
    })
    expect(asText.status).toBe(400)
    expect(asText.text).not.toContain(secret)
    const wrongType = await http(url("/auth/login"), { body: { email: secret, password: 12345678901 } })
    expect(wrongType.status).toBe(422)
    expect(wrongType.text).not.toContain(secret)
    expect(wrongType.text).not.toContain("12345678901")
  })

  it("an unknown route is 404 not_found in problem shape", async () => {
    const body = expectProblem(await http(url("/no/such/route")), 404, "not_found")
    expect(body["detail"]).toContain("/no/such/route")
    // A route that does not exist is 404 whatever the token; a real route checks the token first.
    expectProblem(await http(url("/no/such/route"), { headers: bearer("whatever") }), 404, "not_found")
    expectProblem(await http(url("/datasets/"), { headers: bearer("whatever") }), 401, "invalid_token")
  })

  it("X-Request-Id: a caller's sane id is echoed (header and body), otherwise one is minted", async () => {
    const echoed = await http(url("/no/such/route"), { headers: { "x-request-id": "abcdefgh-1234" } })
    expect(echoed.header("x-request-id")).toBe("abcdefgh-1234")
    expect(expectProblem(echoed, 404, "not_found")["request_id"]).toBe("abcdefgh-1234")

    const health = await http(url("/health"), { headers: { "x-request-id": "abcdefgh-1234" } })
    expect(health.header("x-request-id")).toBe("abcdefgh-1234")

    for (const insane of ["short", "has spaces in it", "x".repeat(200)]) {
      const minted = await http(url("/health"), { headers: { "x-request-id": insane } })
      expect(minted.header("x-request-id")).not.toBe(insane)
      expect(minted.header("x-request-id")).toMatch(uuidPattern)
    }
    const a = (await http(url("/health"))).header("x-request-id")
    const b = (await http(url("/health"))).header("x-request-id")
    expect(a).toMatch(uuidPattern)
    expect(a).not.toBe(b)
  })
})

describe("public endpoints", () => {
  it("GET /health without auth is exactly {status, service, timestamp}", async () => {
    const response = await http(url("/health"))
    const body = ok<Record<string, unknown>>(response)
    expect(response.header("content-type")).toMatch(/^application\/json\b/)
    expect(Object.keys(body).sort()).toEqual(["service", "status", "timestamp"])
    expect(body).toMatchObject({ status: "healthy", service: "synth-data-service" })
    expect(body["timestamp"]).toMatch(isoUtcPattern)
    expect(Math.abs(Date.parse(body["timestamp"] as string) - Date.now())).toBeLessThan(60_000)
  })

  it("GET /docs is HTML that loads nothing from another host", async () => {
    const response = await http(url("/docs"))
    expect(response.status).toBe(200)
    expect(response.header("content-type")).toMatch(/^text\/html\b/)
    expect(response.text).toMatch(/<html/i)
    expect(response.text).toMatch(/swagger/i)
    const tags = response.text.match(/<(script|link|img|iframe)\b[^>]*>/gi) ?? []
    const external = tags.filter((tag) => /\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i.test(tag))
    expect(external).toEqual([])
    expect(response.text).not.toMatch(/@import\s+(url\()?["']?(https?:)?\/\//i)
  })

  it("GET /openapi.json documents every auth path and a bearer security scheme", async () => {
    const response = await http(url("/openapi.json"))
    const document = ok<{
      readonly openapi: string
      readonly info: { readonly version: string }
      readonly paths: Record<string, Record<string, { readonly security?: ReadonlyArray<Record<string, unknown>> }>>
      readonly components: { readonly securitySchemes: Record<string, { readonly type: string; readonly scheme?: string }> }
    }>(response)
    expect(response.header("content-type")).toMatch(/^application\/json\b/)
    expect(document.openapi).toMatch(/^3\./)
    expect(document.info.version).toMatch(/\S/)
    for (const path of ["/health", "/auth/register", "/auth/login", "/auth/refresh", "/auth/me"]) {
      expect(Object.keys(document.paths)).toContain(path)
    }
    const bearerSchemes = Object.entries(document.components.securitySchemes)
      .filter(([, scheme]) => scheme.type === "http" && scheme.scheme?.toLowerCase() === "bearer")
      .map(([name]) => name)
    expect(bearerSchemes.length).toBeGreaterThan(0)
    const meSecurity = document.paths["/auth/me"]?.["get"]?.security ?? []
    expect(meSecurity.some((requirement) => bearerSchemes.some((name) => name in requirement))).toBe(true)
    expect(document.paths["/health"]?.["get"]?.security ?? []).toEqual([])
  })
})

describe("CORS", () => {
  const preflight = (origin: string, path = "/auth/me") =>
    http(url(path), {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization, content-type"
      }
    })

  it("a preflight from an allowed origin is allowed, with the Authorization header", async () => {
    for (const origin of [allowedOrigin, otherAllowedOrigin]) {
      const response = await preflight(origin)
      expect(response.status).toBeLessThan(300)
      expect(response.header("access-control-allow-origin")).toBe(origin)
      expect(response.header("access-control-allow-headers")?.toLowerCase().split(/\s*,\s*/)).toContain("authorization")
      expect(response.header("access-control-allow-methods")?.toUpperCase()).toContain("GET")
    }
  })

  it("a preflight from any other origin gets no allow-origin", async () => {
    for (const origin of ["https://evil.example.com", "https://app.example.com.evil.test", "http://app.example.com", "null"]) {
      const response = await preflight(origin)
      expect(response.header("access-control-allow-origin"), origin).toBeUndefined()
    }
  })

  it("simple requests: allowed origins see the rate-limit headers, others get no allow-origin", async () => {
    const disallowed = await http(url("/health"), { headers: { origin: "https://evil.example.com" } })
    expect(disallowed.status).toBe(200)
    expect(disallowed.header("access-control-allow-origin")).toBeUndefined()

    const allowed = await http(url("/health"), { headers: { origin: allowedOrigin } })
    expect(allowed.header("access-control-allow-origin")).toBe(allowedOrigin)
    const exposed = allowed.header("access-control-expose-headers")?.toLowerCase().split(/\s*,\s*/) ?? []
    for (const name of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after", "x-request-id", "location"]) {
      expect(exposed).toContain(name)
    }
  })
})

describe("rate limits (a server with 5 requests a minute)", () => {
  const rateHeaders = (response: RawResponse) => ({
    limit: Number(response.header("ratelimit-limit")),
    remaining: Number(response.header("ratelimit-remaining")),
    reset: Number(response.header("ratelimit-reset"))
  })

  const expectRateLimited = (response: RawResponse) => {
    expectProblem(response, 429, "rate_limited")
    const retryAfter = response.header("retry-after")
    expect(retryAfter).toMatch(/^\d+$/)
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
    expect(Number(retryAfter)).toBeLessThanOrEqual(60)
    expect(rateHeaders(response)).toMatchObject({ limit: 5, remaining: 0 })
  }

  it("per client address on the auth endpoints: the 6th login within a minute is 429 with Retry-After", async () => {
    // The account comes from another loopback address, so every request of 127.0.0.1 below is a login.
    const email = uniqueEmail("limited")
    const registration = await registerRaw(email, goodPassword, limited, "127.0.0.2")
    expect(registration.status).toBe(201)
    expect(rateHeaders(registration)).toMatchObject({ limit: 5, remaining: 4 })

    const remaining: Array<number> = []
    for (let attempt = 1; attempt <= 5; attempt++) {
      // A brute-force run: right password first, then wrong ones; each counts.
      const response = await loginRaw(email, attempt === 1 ? goodPassword : `wrong password ${attempt}`, limited, "127.0.0.1")
      expect(response.status, response.text).toBe(attempt === 1 ? 200 : 401)
      const headers = rateHeaders(response)
      expect(headers.limit).toBe(5)
      expect(headers.reset).toBeGreaterThanOrEqual(1)
      expect(headers.reset).toBeLessThanOrEqual(60)
      remaining.push(headers.remaining)
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0])

    expectRateLimited(await loginRaw(email, goodPassword, limited, "127.0.0.1"))
    // Register and refresh share the address's budget.
    expectRateLimited(await registerRaw(uniqueEmail("later"), goodPassword, limited, "127.0.0.1"))
    expectRateLimited(await http(url("/auth/refresh", limited), { method: "POST", headers: bearer("x"), localAddress: "127.0.0.1" }))

    // Another address has its own budget.
    const elsewhere = await loginRaw(email, goodPassword, limited, "127.0.0.3")
    expect(elsewhere.status).toBe(200)
    expect(rateHeaders(elsewhere)).toMatchObject({ limit: 5, remaining: 4 })
  })

  it("per user on authenticated endpoints: the 6th /auth/me within a minute is 429 with Retry-After", async () => {
    const user = await signUp("per-user", limited, "127.0.0.4")
    const remaining: Array<number> = []
    for (let call = 1; call <= 5; call++) {
      const response = await meRaw(user.tokens.access_token, limited)
      expect(response.status, response.text).toBe(200)
      expect(rateHeaders(response).limit).toBe(5)
      expect(rateHeaders(response).reset).toBeGreaterThanOrEqual(1)
      remaining.push(rateHeaders(response).remaining)
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0])
    expectRateLimited(await meRaw(user.tokens.access_token, limited))

    // The limit is the user's, not the address's: another user from the same address still gets in.
    const other = await signUp("per-user-other", limited, "127.0.0.5")
    const response = await meRaw(other.tokens.access_token, limited)
    expect(response.status).toBe(200)
    expect(rateHeaders(response)).toMatchObject({ limit: 5, remaining: 4 })
  })
})
