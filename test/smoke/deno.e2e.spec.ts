import { expect, it, onTestFinished } from "vitest"
import { startServer } from "../support/server.ts"

// The standalone runtime runs unchanged under Deno 2: the sources use `.ts` relative imports and node: built-ins,
// and Deno reads the npm packages from this checkout's node_modules (--node-modules-dir=manual).
it("the standalone runtime starts under Deno, serves the auth flow and exits cleanly on SIGTERM", async () => {
  const server = await startServer({ runtime: "deno" })
  let stopped = false
  onTestFinished(async () => {
    if (!stopped) await server.stop("SIGKILL")
  })

  const response = await fetch(`${server.baseUrl}/health`)
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ status: "healthy" })

  // The parts with the most platform surface: PGlite on disk, scrypt, WebCrypto HMAC for the JWTs.
  const credentials = JSON.stringify({ email: "deno@example.com", password: "correct horse battery" })
  const post = (path: string, body: string) =>
    fetch(`${server.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body })
  expect((await post("/auth/register", credentials)).status).toBe(201)
  const login = await post("/auth/login", credentials)
  expect(login.status).toBe(200)
  const { access_token } = (await login.json()) as { access_token: string }
  const me = await fetch(`${server.baseUrl}/auth/me`, { headers: { authorization: `Bearer ${access_token}` } })
  expect(await me.json()).toMatchObject({ email: "deno@example.com", roles: ["user"] })

  stopped = true
  const exit = await server.stop("SIGTERM")
  expect(exit, `output:\n${server.output}`).toEqual({ code: 0, signal: null })
}, 120_000)
