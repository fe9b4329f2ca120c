/**
 * The name an upload is stored under, from the multipart part's `filename`.
 *
 * Browsers write `"`, CR and LF in a multipart filename as %22, %0D and %0A (WHATWG HTML, multipart/form-data
 * encoding); those three are turned back. RFC 7578 §4.2: a receiver must not use directory parts of a file name, so
 * only what follows the last `/` or `\` is kept (both, whatever the sender's system). Control characters (C0, DEL,
 * C1) are dropped, as is whitespace around the name. The name sent is not kept anywhere else: a path or a control
 * character in it is not something an auditor needs and is what a log or a terminal should never show.
 * A name with nothing left (`../`, an empty filename) becomes `upload`.
 */
export const uploadFilename = (sent: string): string => {
  const decoded = sent.replace(/%(22|0D|0A)/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)))
  const base = decoded.slice(Math.max(decoded.lastIndexOf("/"), decoded.lastIndexOf("\\")) + 1)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
  const printable = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim()
  return printable === "" || printable === "." || printable === ".." ? fallbackName : printable
}

const fallbackName = "upload"
