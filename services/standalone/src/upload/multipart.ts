import { randomBytes } from "node:crypto"

/** The pieces of a `multipart/form-data` body with one file part: the file's bytes go between head and tail. */
export interface MultipartEnvelope {
  readonly contentType: string
  readonly head: Buffer
  readonly tail: Buffer
  /** Content-Length of the whole body for a file of `fileSize` bytes. */
  readonly contentLength: (fileSize: number) => number
}

/** RFC 8187 ext-value: UTF-8, percent-encoding everything but attr-char. */
const extendedValue = (text: string) =>
  `UTF-8''${encodeURIComponent(text).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`

/**
 * The part's filename parameters. A plain printable-ASCII name without `"` or a backslash goes as `filename="..."`,
 * as every client sends it. Any other name also goes as `filename*` (RFC 8187), which carries it exactly (parsers
 * such as multipasta prefer it), beside an ASCII fallback with `"`, CR and LF percent-encoded as browsers do.
 */
export const filenameParameters = (filename: string) => {
  if (/^[\x20-\x7e]*$/.test(filename) && !/["\\]/.test(filename)) return `filename="${filename}"`
  const fallback = filename
    .replaceAll("\r", "%0D")
    .replaceAll("\n", "%0A")
    .replaceAll("\"", "%22")
    .replaceAll("\\", "%5C")
    .replace(/[^\x20-\x7e]/g, "_")
  return `filename="${fallback}"; filename*=${extendedValue(filename)}`
}

export const multipartEnvelope = (field: string, filename: string, mediaType: string): MultipartEnvelope => {
  const boundary = `----synth-upload-${randomBytes(16).toString("hex")}`
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${field}"; ${filenameParameters(filename)}\r\n` +
      `Content-Type: ${mediaType}\r\n\r\n`,
    "utf8"
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, "utf8")
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head,
    tail,
    contentLength: (fileSize) => head.length + fileSize + tail.length
  }
}

/** The part's media type by extension; the server sniffs the content anyway, this only helps proxies and logs. */
export const mediaTypeOf = (filename: string): string => {
  const extension = filename.toLowerCase().split(".").pop()
  if (extension === "csv") return "text/csv"
  if (extension === "json") return "application/json"
  if (extension === "ndjson" || extension === "jsonl") return "application/x-ndjson"
  return "application/octet-stream"
}
