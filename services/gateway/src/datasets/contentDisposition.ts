/**
 * `Content-Disposition: attachment` for a download named after the user's file. The name is data from the user:
 * only its base name is used (no directories), the extension becomes the download's (`.csv`, `.json`...), the plain `filename` is printable ASCII
 * without quotes, backslashes, slashes or control characters (each replaced by `_`), and the exact name travels as
 * RFC 5987 / RFC 6266 `filename*=UTF-8''<percent-encoded>`.
 */
export const attachmentDisposition = (originalFilename: string, extension = ".csv"): string => {
  const name = downloadNameFor(originalFilename, extension)
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeRfc5987(name)}`
}

/** The download's name: the original's base name with its extension replaced by `extension`. */
export const downloadNameFor = (originalFilename: string, extension = ".csv"): string => {
  const withoutControls = [...originalFilename].filter((char) => !isControl(char)).join("")
  const base = withoutControls.split(/[/\\]/).pop() ?? ""
  const stem = base.replace(/\.[^.]*$/, "").trim()
  return `${stem === "" || /^\.+$/.test(stem) ? "dataset" : stem}${extension}`
}

const isControl = (char: string) => {
  const code = char.codePointAt(0) ?? 0
  return code < 0x20 || code === 0x7f
}

const asciiFallback = (name: string) => name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]|["\\/%]/g, "_")

/** RFC 5987 attr-char is ALPHA / DIGIT / "!#$&+-.^_`|~": everything else percent-encoded as UTF-8. */
const encodeRfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
