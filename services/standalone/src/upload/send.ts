import { Effect } from "effect"
import { createReadStream } from "node:fs"
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import { request as httpsRequest } from "node:https"
import { UploadFailed } from "./errors.ts"
import { mediaTypeOf, multipartEnvelope } from "./multipart.ts"

export interface FileToSend {
  readonly path: string
  /** The name the server stores (the part's filename). */
  readonly filename: string
  readonly size: number
}

export interface ServerAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/**
 * POSTs the file as `multipart/form-data` (one part, `file`) while reading it: the body is the part's head, the file
 * streamed with backpressure, and the closing boundary, so memory stays flat for any file size. `onSent` hears the
 * file bytes handed to the connection so far.
 *
 * The server may answer before the body is complete (413 for a file over its limit) and close the connection; that
 * answer is what counts, and the write errors that follow it are expected.
 */
export const sendFile = (
  url: URL,
  accessToken: string,
  file: FileToSend,
  onSent: (bytes: number) => void
): Effect.Effect<ServerAnswer, UploadFailed> =>
  Effect.callback<ServerAnswer, UploadFailed>((resume) => {
    const envelope = multipartEnvelope("file", file.filename, mediaTypeOf(file.filename))
    let settled = false
    const settle = (outcome: Effect.Effect<ServerAnswer, UploadFailed>) => {
      if (settled) return
      settled = true
      resume(outcome)
    }
    const unreachable = (error: Error) =>
      new UploadFailed({ message: `the upload to ${url.origin} failed: ${error.message}` })

    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: "application/json, application/problem+json",
        "content-type": envelope.contentType,
        "content-length": String(envelope.contentLength(file.size))
      }
    })
    const source = createReadStream(file.path, { highWaterMark: 256 * 1024 })
    let answered = false

    request.once("response", (response) => {
      answered = true
      source.destroy()
      const chunks: Array<Buffer> = []
      const finish = () =>
        settle(Effect.succeed({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }))
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.once("end", finish)
      // A server that closes right after an early answer may cut the body short: what arrived is still the answer.
      response.once("error", finish)
      response.once("close", finish)
    })
    request.on("error", (error) => {
      source.destroy()
      if (!answered) settle(Effect.fail(unreachable(error)))
    })

    let sent = 0
    request.write(envelope.head)
    source.on("data", (chunk) => {
      sent += chunk.length
      onSent(sent)
      if (!request.write(chunk)) source.pause()
    })
    request.on("drain", () => source.resume())
    source.once("end", () => request.end(envelope.tail))
    source.once("error", (error) => {
      request.destroy()
      settle(Effect.fail(new UploadFailed({ message: `could not read ${file.path}: ${error.message}` })))
    })

    return Effect.sync(() => {
      source.destroy()
      request.destroy()
    })
  })
