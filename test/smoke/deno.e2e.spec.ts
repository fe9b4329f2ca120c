import { expect, it, onTestFinished } from "vitest"
import { startServer } from "../support/server.ts"

// The standalone runtime runs unchanged under Deno 2: the sources use `.ts` relative imports and node: built-ins,
// and Deno reads the npm packages from this checkout's node_modules (--node-modules-dir=manual).
it("the standalone runtime starts under Deno, answers /health and exits cleanly on SIGTERM", async () => {
  const server = await startServer({ runtime: "deno" })
  let stopped = false
  onTestFinished(async () => {
    if (!stopped) await server.stop("SIGKILL")
  })

  const response = await fetch(`${server.baseUrl}/health`)
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ status: "healthy" })

  stopped = true
  const exit = await server.stop("SIGTERM")
  expect(exit, `output:\n${server.output}`).toEqual({ code: 0, signal: null })
}, 120_000)
