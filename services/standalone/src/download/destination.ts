import { parse } from "content-disposition"
import type { DownloadFormat } from "./formats.ts"

/**
 * The file name a download is saved under when no --output names one: the server's Content-Disposition name (its
 * exact `filename*` where given), cut to a plain name in the current directory, or `dataset-<id>.<format>` when the
 * answer names none usable.
 *
 * The name comes from the server and, through it, from whoever named the uploaded file: only its last path segment is
 * kept, without control characters, characters Windows forbids or leading dots, so it can neither leave the current
 * directory nor hide itself.
 */
export const defaultFileName = (contentDisposition: string | undefined, dataset: string, format: DownloadFormat | undefined): string => {
  const fallback = `dataset-${dataset.replace(/[^\w-]/g, "_")}.${format ?? "csv"}`
  const given = contentDisposition === undefined ? undefined : namedIn(contentDisposition)
  if (given === undefined) return fallback
  const name = plainName(given)
  return name === "" ? fallback : name
}

const namedIn = (header: string): string | undefined => {
  try {
    return parse(header).parameters["filename"]
  } catch {
    // A malformed header names nothing usable; the fallback name is as good as any.
    return undefined
  }
}

const isControl = (character: string) => {
  const code = character.codePointAt(0) ?? 0
  return code < 0x20 || code === 0x7f
}

const plainName = (name: string): string =>
  [...(name.split(/[/\\]/).pop() ?? "")].filter((character) => !isControl(character)).join("")
    .replace(/[<>:"|?*]/g, "_")
    .trim()
    .replace(/^\.+/, "")
