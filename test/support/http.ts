import { request as httpRequest, type IncomingHttpHeaders } from "node:http"

/** A response read in full: the status, the headers (lower-case names) and the body as text and, if it is, JSON. */
export interface RawResponse {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
  /** The body as it came (for binary bodies such as a Parquet download). */
  readonly bytes: Buffer
  /** The parsed body; `undefined` when the body is empty or not JSON. */
  readonly json: unknown
  /** One header as a string (`undefined` when absent; repeated headers joined with ", "). */
  readonly header: (name: string) => string | undefined
}

export interface RawRequest {
  readonly method?: string
  readonly headers?: Readonly<Record<string, string>>
  /** An object is sent as JSON (with `Content-Type: application/json` unless given); a string or Buffer as it is. */
  readonly body?: unknown
  /**
   * The local address the connection comes from. Linux routes all of 127.0.0.0/8 to the loopback interface, so a
   * request from 127.0.0.2 reaches a server on 127.0.0.1 as a different client address (its own rate-limit key).
   */
  readonly localAddress?: string
  readonly timeoutMs?: number
}

/**
 * One HTTP request with node:http and nothing in between: no connection pool, no redirects, no header
 * normalisation beyond lower-cased names, so tests see exactly what the server sent.
 */
export const http = (url: string, options: RawRequest = {}): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers }
    let payload: string | Buffer | undefined
    if (typeof options.body === "string" || Buffer.isBuffer(options.body)) payload = options.body
    else if (options.body !== undefined) {
      payload = JSON.stringify(options.body)
      if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
        headers["content-type"] = "application/json"
      }
    }
    if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload))
    const req = httpRequest(url, {
      method: options.method ?? (payload === undefined ? "GET" : "POST"),
      headers,
      agent: false,
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      timeout: options.timeoutMs ?? 30_000
    })
    req.once("timeout", () => req.destroy(new Error(`${req.method} ${url} timed out`)))
    req.once("error", reject)
    req.once("response", (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.once("error", reject)
      res.once("end", () => {
        const bytes = Buffer.concat(chunks)
        const text = bytes.toString("utf8")
        let json: unknown
        try {
          json = text === "" ? undefined : JSON.parse(text)
        } catch {
          json = undefined
        }
        const header = (name: string) => {
          const value = res.headers[name.toLowerCase()]
          return Array.isArray(value) ? value.join(", ") : value
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, bytes, json, header })
      })
    })
    req.end(payload)
  })

/** `{ authorization: "Bearer <token>" }`. */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` })

/** A password that passes the service's rules (10 to 256 characters). */
export const goodPassword = "correct horse battery staple"

/** A unique, valid email address for one test. */
export const uniqueEmail = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`
