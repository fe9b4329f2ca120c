// `synth download DATASET` run as a person runs it (node bin/synth.mjs): against a standalone runtime for the CSV a
// dataset downloads as today, and against a local server that records each request and answers as told, for what
// the runtime in this tree cannot show yet (the `format` parameter, Content-Length, a transfer that breaks off).
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type CliResult, runSynth } from "../support/cli.ts"
import { download, upload, uploaded } from "../support/datasets.ts"
import { goodPassword, http, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, realDataset } from "../support/upload.ts"

const credentialVariables = ["SYNTH_URL", "SYNTH_TOKEN", "SYNTH_EMAIL", "SYNTH_PASSWORD"]
const datasetId = "0199a7e4-1111-7000-8000-00000000beef"

let workDir: string

const synthDownload = (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string>; readonly cwd?: string } = {}) =>
  runSynth(["download", ...args], {
    env: options.env ?? {},
    unsetEnv: credentialVariables.filter((name) => !(name in (options.env ?? {}))),
    timeoutMs: 120_000,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd })
  })

/** A fresh, empty directory of this run to download into. */
const freshDir = async (name: string) => {
  const dir = join(workDir, name)
  await mkdir(dir)
  return dir
}

/** The one `synth: ...` line a failure prints. */
const failureLine = (result: CliResult) => {
  const line = result.stderr.split("\n").find((text) => text.startsWith("synth: "))
  expect(line, result.output).toBeDefined()
  return line!
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "synth-e2e-download-cli-"))
})

afterAll(async () => {
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

// --- against a server that records what it is asked and answers as a route says -----------------------------------

interface Recorded {
  readonly url: string
  readonly authorization: string | undefined
}

type Route = (request: IncomingMessage, response: ServerResponse) => void

/** Deterministic bytes that are not text: what a Parquet file looks like to a transfer. */
const binary = (size: number): Buffer => {
  const bytes = Buffer.alloc(size)
  let state = 12345
  for (let index = 0; index < size; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    bytes[index] = state >>> 24
  }
  return bytes
}

const parquetBody = binary(3_000_000)
const csvBody = "species,island,body_mass_g\nAdelie,Torgersen,3750\nGentoo,Biscoe,5000\n"
const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex")

const problem = (response: ServerResponse, status: number, code: string, detail: string, errors?: ReadonlyArray<{ field: string; message: string }>) =>
  response.writeHead(status, { "content-type": "application/problem+json" }).end(JSON.stringify({
    type: `/errors/${code}`, title: code, status, detail, code, request_id: "req-1", ...(errors === undefined ? {} : { errors })
  }))

/** Dataset ids the fake server knows, each answering its own way. */
const routes: Record<string, Route> = {
  [datasetId]: (request, response) => {
    const format = new URL(request.url ?? "/", "http://x").searchParams.get("format")
    if (format === "parquet") {
      response.writeHead(200, {
        "content-type": "application/vnd.apache.parquet",
        "content-length": String(parquetBody.length),
        "content-disposition": `attachment; filename="penguins_.parquet"; filename*=UTF-8''pingu%C3%AFns.parquet`
      }).end(parquetBody)
      return
    }
    // No Content-Length: the answer streams in chunks, as the runtime's CSV does.
    response.writeHead(200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="penguins.csv"` })
    response.write(csvBody.slice(0, 30))
    setTimeout(() => response.end(csvBody.slice(30)), 50)
  },
  "traversal": (_request, response) => {
    response.writeHead(200, { "content-type": "text/csv", "content-disposition": `attachment; filename="../../.evil.csv"` }).end(csvBody)
  },
  "unnamed": (_request, response) => {
    response.writeHead(200, { "content-type": "text/csv" }).end(csvBody)
  },
  "broken": (_request, response) => {
    response.writeHead(200, { "content-type": "text/csv", "content-length": "1000000", "content-disposition": `attachment; filename="broken.csv"` })
    response.write(Buffer.alloc(100_000, 97))
    setTimeout(() => response.destroy(), 50)
  },
  "missing": (_request, response) => problem(response, 404, "not_found", "Dataset missing not found. Check the id (GET /datasets lists yours)."),
  "refusing": (_request, response) =>
    problem(response, 422, "validation_failed", "The request has invalid fields; see errors.", [
      { field: "format", message: "must be one of csv, json, ndjson" }
    ]),
  "csv-only": (_request, response) => {
    response.writeHead(200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="old.csv"` }).end(csvBody)
  }
}

describe("synth download against a recording server", () => {
  let server: Server
  let baseUrl: string
  const recorded: Array<Recorded> = []

  beforeAll(async () => {
    server = createServer((request, response) => {
      recorded.push({ url: request.url ?? "", authorization: request.headers.authorization })
      const match = /^\/datasets\/([^/?]+)\/download(?:\?|$)/.exec(request.url ?? "")
      const route = match === null ? undefined : routes[decodeURIComponent(match[1]!)]
      if (route === undefined) problem(response, 404, "not_found", "no such route")
      else route(request, response)
    })
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise((closed) => (server === undefined ? closed(undefined) : server.close(closed)))
  })

  const lastRequest = () => recorded[recorded.length - 1]!

  it("--format parquet asks for ?format=parquet with the token, and saves the bytes under the server's exact name", async () => {
    const dir = await freshDir("parquet")
    const result = await synthDownload([datasetId, "--format", "parquet"], { env: { SYNTH_URL: baseUrl, SYNTH_TOKEN: "token-1" }, cwd: dir })
    expect(result.code, result.output).toBe(0)
    expect(lastRequest()).toEqual({ url: `/datasets/${datasetId}/download?format=parquet`, authorization: "Bearer token-1" })
    expect(await readdir(dir)).toEqual(["pinguïns.parquet"])
    expect(sha256(await readFile(join(dir, "pinguïns.parquet")))).toBe(sha256(parquetBody))
    expect(result.stdout).toBe(`Downloaded dataset ${datasetId} to pinguïns.parquet (3.0 MB).\n`)
    // Not a terminal: no bar, one summary line with the announced size.
    expect(result.stderr).toMatch(/^received 3\.0 MB of 3\.0 MB in [\d.]+ s \([\d.]+ MB\/s\)\n$/)
  }, 120_000)

  it("without --format sends no format parameter; a CSV of unknown size gets a summary without a total", async () => {
    const dir = await freshDir("default")
    const result = await synthDownload([datasetId, "--url", baseUrl, "--token", "token-2"], { cwd: dir })
    expect(result.code, result.output).toBe(0)
    expect(lastRequest()).toEqual({ url: `/datasets/${datasetId}/download`, authorization: "Bearer token-2" })
    expect(await readFile(join(dir, "penguins.csv"), "utf8")).toBe(csvBody)
    expect(result.stderr).toMatch(/^received 0\.1 kB in [\d.]+ s \([\d.]+ MB\/s\)\n$/)
  }, 120_000)

  it("--output - writes the bytes to stdout and nothing else there", async () => {
    const result = await synthDownload([datasetId, "--url", baseUrl, "--token", "t", "--output", "-"])
    expect(result.code, result.output).toBe(0)
    expect(result.stdout).toBe(csvBody)
    expect(result.stderr).toMatch(/^received /)
  }, 120_000)

  it("refuses to overwrite a file without --force (exit 2, nothing requested) and replaces it with --force", async () => {
    const dir = await freshDir("overwrite")
    const target = join(dir, "mine.parquet")
    await writeFile(target, "keep me")
    const requestsBefore = recorded.length
    const refused = await synthDownload([datasetId, "--url", baseUrl, "--token", "t", "--format", "parquet", "--output", target])
    expect(refused.code, refused.output).toBe(2)
    expect(failureLine(refused)).toBe(`synth: ${target} exists: give --force to replace it, or --output another file`)
    expect(await readFile(target, "utf8")).toBe("keep me")
    expect(recorded.length).toBe(requestsBefore)

    const replaced = await synthDownload([datasetId, "--url", baseUrl, "--token", "t", "--format", "parquet", "--output", target, "--force"])
    expect(replaced.code, replaced.output).toBe(0)
    expect(sha256(await readFile(target))).toBe(sha256(parquetBody))
    expect(await readdir(dir)).toEqual(["mine.parquet"])
  }, 120_000)

  it("the server's name is refused too when that file exists: exit 2, the file untouched", async () => {
    const dir = await freshDir("named-exists")
    await writeFile(join(dir, "penguins.csv"), "mine")
    const result = await synthDownload([datasetId, "--url", baseUrl, "--token", "t", "--output", dir])
    expect(result.code, result.output).toBe(2)
    expect(failureLine(result)).toContain("penguins.csv exists: give --force")
    expect(await readFile(join(dir, "penguins.csv"), "utf8")).toBe("mine")
    expect(await readdir(dir)).toEqual(["penguins.csv"])
  }, 120_000)

  it("keeps a server-given name inside the directory: no path, no hidden file; a nameless answer is named after the id", async () => {
    const dir = await freshDir("names")
    const traversal = await synthDownload(["traversal", "--url", baseUrl, "--token", "t"], { cwd: dir })
    expect(traversal.code, traversal.output).toBe(0)
    const unnamed = await synthDownload(["unnamed", "--url", baseUrl, "--token", "t", "--format", "csv"], { cwd: dir })
    expect(unnamed.code, unnamed.output).toBe(0)
    expect((await readdir(dir)).sort()).toEqual(["dataset-unnamed.csv", "evil.csv"])
    expect(existsSync(join(workDir, ".evil.csv"))).toBe(false)
  }, 120_000)

  it("a transfer that breaks off fails with exit 1 and leaves no file behind", async () => {
    const dir = await freshDir("broken")
    const result = await synthDownload(["broken", "--url", baseUrl, "--token", "t"], { cwd: dir })
    expect(result.code, result.output).toBe(1)
    expect(failureLine(result)).toMatch(/^synth: the download from http:\/\/127\.0\.0\.1:\d+ broke off: /)
    expect(await readdir(dir)).toEqual([])
  }, 120_000)

  it("the server's problem on stderr with exit 1: an unknown dataset, an unknown format with its field", async () => {
    const missing = await synthDownload(["missing", "--url", baseUrl, "--token", "t"])
    expect(missing.code, missing.output).toBe(1)
    expect(failureLine(missing)).toBe("synth: Dataset missing not found. Check the id (GET /datasets lists yours).")

    // A validation failure's detail points at errors[], which a terminal does not show: each field's problem follows.
    const refused = await synthDownload(["refusing", "--url", baseUrl, "--token", "t", "--format", "parquet"])
    expect(refused.code, refused.output).toBe(1)
    expect(lastRequest().url).toBe("/datasets/refusing/download?format=parquet")
    expect(failureLine(refused)).toBe("synth: The request has invalid fields; see errors. format: must be one of csv, json, ndjson.")

    // --format itself offers the four forms only: another is a usage error before any request.
    const requestsBefore = recorded.length
    const badChoice = await synthDownload([datasetId, "--url", baseUrl, "--token", "t", "--format", "yaml"])
    expect(badChoice.code, badChoice.output).toBe(2)
    expect(recorded.length).toBe(requestsBefore)
  }, 120_000)

  it("a server that answers CSV to another format (it predates the parameter) is refused rather than saved as that format", async () => {
    const dir = await freshDir("csv-only")
    const result = await synthDownload(["csv-only", "--url", baseUrl, "--token", "t", "--format", "json"], { cwd: dir })
    expect(result.code, result.output).toBe(1)
    expect(failureLine(result)).toMatch(/asked for --format json, the server sent CSV/)
    expect(await readdir(dir)).toEqual([])
  }, 120_000)

  it("bad usage exits 2 (no credentials, a malformed --url); an unreachable server exits 1 naming the address", async () => {
    const noCredentials = await synthDownload([datasetId, "--url", baseUrl])
    expect(noCredentials.code, noCredentials.output).toBe(2)
    expect(noCredentials.stderr).toMatch(/--token.*--email/)

    const badUrl = await synthDownload([datasetId, "--url", "not a url", "--token", "t"])
    expect(badUrl.code, badUrl.output).toBe(2)

    const unreachable = await synthDownload([datasetId, "--url", "http://127.0.0.1:9", "--token", "t", "--output", "-"])
    expect(unreachable.code, unreachable.output).toBe(1)
    expect(failureLine(unreachable)).toMatch(/^synth: could not reach http:\/\/127\.0\.0\.1:9/)
  }, 120_000)
})

// --- against the service -------------------------------------------------------------------------------------------

describe("synth download against the service", () => {
  let server: RunningServer
  let token: string
  let penguinsId: string

  beforeAll(async () => {
    server = await startServer({
      runtime: "node",
      env: { AUTH_RATE_LIMIT_PER_MINUTE: "10000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
      readyTimeoutMs: 150_000
    })
    token = await createAccount(server.baseUrl, "download-cli")
    penguinsId = uploaded(await upload(server.baseUrl, token, "penguins.csv", realDataset("penguins"))).id
  }, 200_000)

  afterAll(async () => {
    await server?.stop("SIGTERM", 60_000)
  }, 90_000)

  it("saves the CSV the API serves, byte for byte, under the dataset's file name", async () => {
    const dir = await freshDir("service")
    const result = await synthDownload([penguinsId, "--url", server.baseUrl, "--token", token], { cwd: dir })
    expect(result.code, result.output).toBe(0)
    const served = await download(server.baseUrl, token, penguinsId)
    expect(served.status).toBe(200)
    expect(await readFile(join(dir, "penguins.csv"), "utf8")).toBe(served.text)
    expect(served.text.split(/\r?\n/)[0]).toBe("species,island,bill_length_mm,bill_depth_mm,flipper_length_mm,body_mass_g,sex")
    expect(result.stdout).toMatch(new RegExp(`^Downloaded dataset ${penguinsId} to penguins\\.csv \\([\\d.]+ kB\\)\\.\\n$`))
    expect(result.stderr).toMatch(/^received [\d.]+ kB in [\d.]+ s \([\d.]+ MB\/s\)\n$/)
    expect(result.stderr).not.toContain("\u001b[")
  }, 120_000)

  it("saves each other format the API serves, byte for byte, under its extension", async () => {
    const dir = await freshDir("service-formats")
    for (const [format, extension] of [["parquet", "parquet"], ["json", "json"], ["ndjson", "ndjson"]] as const) {
      const result = await synthDownload([penguinsId, "--format", format, "--url", server.baseUrl, "--token", token], { cwd: dir })
      expect(result.code, result.output).toBe(0)
      const served = await download(server.baseUrl, token, penguinsId, `?format=${format}`)
      expect(served.status).toBe(200)
      expect(Buffer.compare(await readFile(join(dir, `penguins.${extension}`)), served.bytes), format).toBe(0)
    }
    // A Parquet file starts and ends with its magic bytes.
    const parquet = await readFile(join(dir, "penguins.parquet"))
    expect([parquet.subarray(0, 4).toString("latin1"), parquet.subarray(-4).toString("latin1")]).toEqual(["PAR1", "PAR1"])
  }, 120_000)

  it("logs in with SYNTH_EMAIL and SYNTH_PASSWORD; another user's dataset is the server's 404 and a wrong password a failed login, exit 1", async () => {
    const email = uniqueEmail("download-cli-env")
    expect((await http(`${server.baseUrl}/auth/register`, { body: { email, password: goodPassword } })).status).toBe(201)
    const login = await http(`${server.baseUrl}/auth/login`, { body: { email, password: goodPassword } })
    const ownToken = (login.json as { access_token: string }).access_token
    const own = uploaded(await upload(server.baseUrl, ownToken, "tiny.csv", "a,b\n1,x\n2,y\n")).id
    const env = { SYNTH_URL: server.baseUrl, SYNTH_EMAIL: email, SYNTH_PASSWORD: goodPassword }

    const mine = await synthDownload([own, "--output", "-"], { env })
    expect(mine.code, mine.output).toBe(0)
    expect(mine.stdout).toBe((await download(server.baseUrl, ownToken, own)).text)
    expect(mine.stdout.split(/\r?\n/)).toEqual(["a,b", "1,x", "2,y", ""])

    const theirs = await synthDownload([penguinsId, "--output", "-"], { env })
    expect(theirs.code, theirs.output).toBe(1)
    expect(failureLine(theirs)).toBe(`synth: There is no dataset "${penguinsId}" among yours. List them with GET /datasets/.`)
    expect(theirs.stdout).toBe("")

    const wrong = await synthDownload([own, "--output", "-"], { env: { ...env, SYNTH_PASSWORD: "not the password at all" } })
    expect(wrong.code, wrong.output).toBe(1)
    expect(failureLine(wrong)).toMatch(/^synth: login failed: /)
  }, 120_000)
})
