// Vitest-free helpers of the dataset tests and benchmarks: the fixture files, accounts, and uploads built by hand
// (multipart bodies in memory, a file streamed from disk, a slow client), so a test or a benchmark controls every byte.
import { createReadStream, readFileSync, statSync } from "node:fs"
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import { join } from "node:path"
import { filenameParameters } from "@synth/standalone/multipart"
import { bearer, goodPassword, http, uniqueEmail } from "./http.ts"
import { repoRoot } from "./server.ts"

export const fixturesDir = join(repoRoot, "test", "fixtures")

/** The real datasets in test/fixtures/datasets, by file name. */
export const realDataset = (name: "diamonds" | "telco_churn" | "credit_data" | "penguins"): Buffer =>
  readFileSync(join(fixturesDir, "datasets", `${name}.csv`))

/** A fixture of test/fixtures/forms: every form of value an upload keeps (forms.csv) and a nested JSON file. */
export const formsFixture = (name: "forms.csv" | "nested.json"): Buffer => readFileSync(join(fixturesDir, "forms", name))

/** Registers a fresh account and logs it in; the access token. */
export const createAccount = async (baseUrl: string, label: string): Promise<string> => {
  const email = uniqueEmail(label)
  const registered = await http(`${baseUrl}/auth/register`, { body: { email, password: goodPassword } })
  if (registered.status !== 201) throw new Error(`registration failed: ${registered.status} ${registered.text}`)
  const login = await http(`${baseUrl}/auth/login`, { body: { email, password: goodPassword } })
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`)
  return (login.json as { readonly access_token: string }).access_token
}

export interface FormPart {
  readonly name: string
  readonly filename?: string
  readonly contentType?: string
  readonly content: string | Buffer
}

/** A `multipart/form-data` body. */
export const multipart = (parts: ReadonlyArray<FormPart>) => {
  const boundary = `----synth-e2e-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`
  const chunks: Array<Buffer> = []
  for (const part of parts) {
    const filename = part.filename === undefined ? "" : `; ${filenameParameters(part.filename)}`
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n` +
          `Content-Type: ${part.contentType ?? "application/octet-stream"}\r\n\r\n`,
        "utf8"
      ),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, "utf8"),
      Buffer.from("\r\n", "utf8")
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, "utf8"))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

export interface EarlyAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
  /** File bytes written when the response's head arrived, and the file's whole size. */
  readonly writtenWhenAnswered: number
  readonly totalBytes: number
}

/**
 * Uploads `totalBytes` of CSV-looking data, written in chunks with a pause between them (a slow client), and reports
 * how much had been written when the response arrived. A server that enforces its limit while reading answers long
 * before the end; write errors after the answer (the server closing the connection) are expected and ignored.
 */
export const slowUpload = (
  baseUrl: string,
  token: string,
  options: { readonly totalBytes: number; readonly chunkBytes: number; readonly pauseMs: number }
): Promise<EarlyAnswer> =>
  new Promise((resolve, reject) => {
    const boundary = "----synth-e2e-slow-upload"
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.csv"\r\nContent-Type: text/csv\r\n\r\n`
    )
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    const line = "12345,67.89,some text,2024-01-02\n"
    const chunk = Buffer.from(line.repeat(Math.ceil(options.chunkBytes / line.length)).slice(0, options.chunkBytes))
    const request = httpRequest(`${baseUrl}/datasets/upload`, {
      method: "POST",
      agent: false,
      headers: {
        ...bearer(token),
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + options.totalBytes + tail.length)
      }
    })
    let written = 0
    let answered = false
    let timer: NodeJS.Timeout | undefined
    request.once("response", (response) => {
      answered = true
      clearTimeout(timer)
      const writtenWhenAnswered = written
      const chunks: Array<Buffer> = []
      const finish = () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString("utf8"),
          writtenWhenAnswered,
          totalBytes: options.totalBytes
        })
      response.on("data", (data: Buffer) => chunks.push(data))
      response.once("end", finish)
      response.once("error", finish)
    })
    request.on("error", (error) => {
      clearTimeout(timer)
      if (!answered) reject(new Error(`the connection failed after ${written} of ${options.totalBytes} bytes without an answer: ${error.message}`))
    })
    request.write(head)
    const writeNext = () => {
      if (answered || request.destroyed) return
      if (written >= options.totalBytes) return void request.end(tail)
      const next = chunk.subarray(0, Math.min(chunk.length, options.totalBytes - written))
      written += next.length
      request.write(next)
      timer = setTimeout(writeNext, options.pauseMs)
    }
    writeNext()
  })

export interface TimedUpload {
  readonly status: number
  readonly text: string
  /** From the request's start to the response's head. */
  readonly milliseconds: number
}

/**
 * Streams a file on disk as the `file` part (never in memory as a whole, like `synth upload`), timing the request
 * from its start to the response's head.
 */
export const streamUpload = (baseUrl: string, token: string, path: string, filename: string): Promise<TimedUpload> =>
  new Promise((resolve, reject) => {
    const boundary = `----synth-bench-${Date.now().toString(36)}`
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`
    )
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    const started = performance.now()
    const request = httpRequest(`${baseUrl}/datasets/upload`, {
      method: "POST",
      agent: false,
      headers: {
        ...bearer(token),
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + statSync(path).size + tail.length)
      }
    })
    const source = createReadStream(path, { highWaterMark: 1024 * 1024 })
    request.once("error", (error) => {
      source.destroy()
      reject(error)
    })
    request.once("response", (response) => {
      const milliseconds = performance.now() - started
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), milliseconds })
      )
    })
    request.write(head)
    source.on("data", (chunk) => {
      if (!request.write(chunk)) source.pause()
    })
    request.on("drain", () => source.resume())
    source.once("end", () => request.end(tail))
    source.once("error", (error) => request.destroy(error))
  })
