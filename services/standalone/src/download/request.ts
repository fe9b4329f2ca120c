import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { Effect } from "effect"
import { refusalLine } from "../client/refusalLine.ts"
import { DownloadFailed } from "./errors.ts"
import type { DownloadFormat } from "./formats.ts"

/** GET /datasets/{id}/download, with `?format=` only when one is asked for (the server's default is CSV). */
export const downloadUrl = (baseUrl: string, dataset: string, format: DownloadFormat | undefined): string => {
  const url = new URL(`${baseUrl}/datasets/${encodeURIComponent(dataset)}/download`)
  if (format !== undefined) url.searchParams.set("format", format)
  return url.href
}

const innermostMessage = (error: unknown): string =>
  error instanceof Error && error.cause instanceof Error ? innermostMessage(error.cause) : String(error instanceof Error ? error.message : error)

/** The media type without parameters, lower-cased: `text/csv; charset=utf-8` is `text/csv`. */
const mediaTypeOf = (response: HttpClientResponse.HttpClientResponse) =>
  (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()

/**
 * The size the answer announces, when it is the size of what arrives: fetch undoes a Content-Encoding, after which
 * Content-Length counts the compressed bytes, not the ones written.
 */
export const announcedSize = (response: HttpClientResponse.HttpClientResponse): number | undefined => {
  const length = response.headers["content-length"]
  const encoding = response.headers["content-encoding"]
  if (length === undefined || (encoding !== undefined && encoding !== "identity")) return undefined
  const size = Number(length)
  return Number.isSafeInteger(size) && size >= 0 ? size : undefined
}

/**
 * The 200 answer to the download, its body not yet read; anything else fails with the one line `synth` prints (the
 * problem's detail, or why the server could not be reached). A server from before the `format` parameter answers
 * CSV whatever was asked: that is refused too, rather than saved under a name that promises another form.
 */
export const requestDownload = (url: string, token: string, format: DownloadFormat | undefined) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request = HttpClientRequest.get(url).pipe(HttpClientRequest.bearerToken(token))
    const response = yield* client.execute(request).pipe(
      Effect.mapError((error) => new DownloadFailed({ message: `could not reach ${new URL(url).origin}: ${innermostMessage(error)}` }))
    )
    if (response.status !== 200) {
      return yield* Effect.flatMap(refusalLine(response, "GET /datasets/{id}/download"), (message) => new DownloadFailed({ message }))
    }
    if (format !== undefined && format !== "csv" && mediaTypeOf(response) === "text/csv") {
      return yield* new DownloadFailed({
        message: `asked for --format ${format}, the server sent CSV: it does not know the format parameter yet. ` +
          `Leave --format out for CSV, or update the server.`
      })
    }
    return response
  })
