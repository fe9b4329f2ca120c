// `synth upload FILE` run as a person runs it (node bin/synth.mjs) against a standalone runtime whose upload limit
// is 2 MB, so one real dataset fits and another does not.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSynth } from "../support/cli.ts"
import { getDataset } from "../support/datasets.ts"
import { goodPassword, http, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, fixturesDir } from "../support/upload.ts"

const limit = 2_000_000
const penguins = join(fixturesDir, "datasets", "penguins.csv")
const diamonds = join(fixturesDir, "datasets", "diamonds.csv")
const credentialVariables = ["SYNTH_URL", "SYNTH_TOKEN", "SYNTH_EMAIL", "SYNTH_PASSWORD"]

let server: RunningServer
let workDir: string
let token: string

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: { MAX_FILE_SIZE: String(limit), AUTH_RATE_LIMIT_PER_MINUTE: "10000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
    readyTimeoutMs: 150_000
  })
  workDir = await mkdtemp(join(tmpdir(), "synth-e2e-upload-cli-"))
  token = await createAccount(server.baseUrl, "cli")
}, 200_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
}, 90_000)

const synthUpload = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  runSynth(["upload", ...args], { env, unsetEnv: credentialVariables.filter((name) => !(name in env)), timeoutMs: 120_000 })

const uploadedId = (stdout: string) => {
  const match = /dataset ([0-9a-f-]{36})/.exec(stdout)
  expect(match, stdout).not.toBeNull()
  return match![1]!
}

describe("synth upload", () => {
  it("uploads with --token: prints the id, rows and columns, a summary line (no terminal) and exits 0", async () => {
    const result = await synthUpload(["--url", server.baseUrl, "--token", token, penguins])
    expect(result.code, result.output).toBe(0)
    expect(result.stdout).toMatch(/penguins\.csv/)
    expect(result.stdout).toMatch(/344 rows, 7 columns/)
    // Not a terminal: no bar, one summary line of what was sent.
    expect(result.stderr).toMatch(/sent [\d.]+ [kM]B of [\d.]+ [kM]B in [\d.]+ s/)
    expect(result.stderr).not.toContain("\u001b[")
    expect(result.stderr).not.toContain("\r")
    const detail = await getDataset(server.baseUrl, token, uploadedId(result.stdout))
    expect(detail).toMatchObject({ filename: "penguins.csv", row_count: 344, column_count: 7 })
  }, 120_000)

  it("logs in first with SYNTH_URL, SYNTH_EMAIL and SYNTH_PASSWORD from the environment", async () => {
    const email = uniqueEmail("cli-env")
    expect((await http(`${server.baseUrl}/auth/register`, { body: { email, password: goodPassword } })).status).toBe(201)
    const result = await synthUpload([penguins], { SYNTH_URL: server.baseUrl, SYNTH_EMAIL: email, SYNTH_PASSWORD: goodPassword })
    expect(result.code, result.output).toBe(0)
    expect(result.stdout).toMatch(/344 rows, 7 columns/)
  }, 120_000)

  it("--email and --password log in; a wrong password ends with one readable line and exit 1", async () => {
    const email = uniqueEmail("cli-flags")
    expect((await http(`${server.baseUrl}/auth/register`, { body: { email, password: goodPassword } })).status).toBe(201)
    const good = await synthUpload(["--url", server.baseUrl, "--email", email, "--password", goodPassword, penguins])
    expect(good.code, good.output).toBe(0)

    const bad = await synthUpload(["--url", server.baseUrl, "--email", email, "--password", "not the password at all", penguins])
    expect(bad.code, bad.output).toBe(1)
    expect(bad.stderr.trim().split("\n")).toHaveLength(1)
    expect(bad.stderr).toMatch(/^synth: login failed: .+/)
  }, 120_000)

  it("a file over the server's limit: the problem's detail in one line, exit 1", async () => {
    const result = await synthUpload(["--url", server.baseUrl, "--token", token, diamonds])
    expect(result.code, result.output).toBe(1)
    const line = result.stderr.split("\n").find((text) => text.startsWith("synth: "))
    expect(line, result.stderr).toBeDefined()
    expect(line).not.toMatch(/[{}]/)
    expect(line!.length).toBeGreaterThan("synth: ".length + 20)
    expect(line).toMatch(/large|limit|size|exceed/i)
  }, 120_000)

  it("an unparseable file: the server's detail, exit 1", async () => {
    const ragged = join(workDir, "ragged.csv")
    await writeFile(ragged, "a,b\n1,2\n3,4,5\n")
    const result = await synthUpload(["--url", server.baseUrl, "--token", token, ragged])
    expect(result.code, result.output).toBe(1)
    expect(result.stderr).toMatch(/^synth: .{20,}$/m)
  }, 120_000)

  it("bad usage exits 2: no credentials, a file that does not exist, a malformed --url", async () => {
    const noCredentials = await synthUpload(["--url", server.baseUrl, penguins])
    expect(noCredentials.code, noCredentials.output).toBe(2)
    expect(noCredentials.stderr).toMatch(/--token.*--email/)

    const missingFile = await synthUpload(["--url", server.baseUrl, "--token", token, join(workDir, "absent.csv")])
    expect(missingFile.code, missingFile.output).toBe(2)

    const badUrl = await synthUpload(["--url", "not a url", "--token", token, penguins])
    expect(badUrl.code, badUrl.output).toBe(2)
  }, 120_000)

  it("a server that is not there: one line naming the address, exit 1", async () => {
    const result = await synthUpload(["--url", "http://127.0.0.1:9", "--token", token, penguins])
    expect(result.code, result.output).toBe(1)
    expect(result.stderr).toMatch(/^synth: .*127\.0\.0\.1:9/m)
  }, 120_000)
})
