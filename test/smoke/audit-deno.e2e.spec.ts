// The audit feed on Deno 2: the standalone runtime serves GET /events (a page and the streamed NDJSON export) under
// Deno, and `synth events export` and `tail` run under Deno too (the CLI's sources as they are).
import { spawn } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, it, onTestFinished } from "vitest"
import { goodPassword, http } from "../support/http.ts"
import { childEnv, denoExecutable, repoRoot, startServer } from "../support/server.ts"

const auditor = "auditor-deno@example.com"

/** `synth <args>` under Deno until it exits, or until `signalAfter` says so and it is sent SIGINT. */
const denoSynth = (args: ReadonlyArray<string>, signalAfter?: (stdout: string) => boolean) =>
  new Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resolve, reject) => {
    const child = spawn(
      denoExecutable(),
      ["run", "--allow-all", "--node-modules-dir=manual", "--no-lock", "services/standalone/src/cli.ts", ...args],
      { cwd: repoRoot, env: childEnv({ NO_COLOR: "1" }, { unsetEnv: ["SYNTH_URL", "SYNTH_TOKEN", "SYNTH_EMAIL", "SYNTH_PASSWORD"] }), stdio: ["ignore", "pipe", "pipe"] }
    )
    let stdout = ""
    let stderr = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`synth ${args.join(" ")} under Deno ran too long:\n${stdout}\n${stderr}`))
    }, 120_000)
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      if (signalAfter?.(stdout) === true) child.kill("SIGINT")
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk))
    child.once("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

it("serves GET /events under Deno and runs synth events export and tail under Deno", async () => {
  const workDir = await mkdtemp(join(tmpdir(), "synth-deno-audit-"))
  const server = await startServer({ runtime: "deno", env: { AUDITOR_EMAILS: auditor }, readyTimeoutMs: 240_000 })
  onTestFinished(async () => {
    await server.stop("SIGTERM").catch(() => server.stop("SIGKILL"))
    await rm(workDir, { recursive: true, force: true })
  })
  expect((await http(`${server.baseUrl}/auth/register`, { body: { email: auditor, password: goodPassword } })).status).toBe(201)
  const login = await http(`${server.baseUrl}/auth/login`, { body: { email: auditor, password: goodPassword } })
  const token = (login.json as { readonly access_token: string }).access_token
  const headers = { authorization: `Bearer ${token}` }

  const page = await http(`${server.baseUrl}/events?limit=1`, { headers })
  expect(page.status, page.text).toBe(200)
  expect(page.json).toMatchObject([{ type: "user.registered", payload: { passwordHash: "[redacted]" } }])
  expect(page.header("link")).toMatch(/rel="next"/)
  const ndjson = await http(`${server.baseUrl}/events`, { headers: { ...headers, accept: "application/x-ndjson" } })
  expect(ndjson.header("content-type")).toMatch(/^application\/x-ndjson/)
  const lines = ndjson.text.split("\n").filter((line) => line !== "")
  expect(lines.map((line) => (JSON.parse(line) as { readonly type: string }).type)).toEqual(["user.registered", "user.logged-in"])

  const file = join(workDir, "events.ndjson")
  const exported = await denoSynth(["events", "export", "--url", server.baseUrl, "--token", token, "--output", file])
  expect(exported.code, exported.stderr).toBe(0)
  expect(await readFile(file, "utf8")).toBe(ndjson.text)
  expect(exported.stderr).toMatch(/exported 2 events/)

  const tailed = await denoSynth(["events", "tail", "--url", server.baseUrl, "--token", token, "--from-position", "1", "--json"], (stdout) =>
    stdout.split("\n").length > 2)
  expect(tailed.code, tailed.stderr).toBe(0)
  expect(tailed.stdout.split("\n").filter((line) => line !== "")).toEqual(lines)
}, 360_000)
