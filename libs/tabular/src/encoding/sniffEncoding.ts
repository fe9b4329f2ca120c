import { TabularError } from "../TabularError.ts"
import type { TextEncoding } from "../records/RecordStream.ts"
import { countControlBytes, knownBinaryFormat } from "./binaryContent.ts"
import { encodingOfByteOrderMark } from "./byteOrderMark.ts"
import { supportedEncodingsAdvice } from "./supportedEncodings.ts"

/** How much of the file's start is examined for a byte order mark, binary content and the CSV delimiter. */
export const HEAD_BYTES = 64 * 1024

/**
 * Text files hold at most a stray control character; more than this share of the head means binary content.
 * 1% tolerates a few form feeds or vertical tabs pasted from other programs.
 */
const MAX_CONTROL_SHARE = 0.01

/**
 * UTF-16 text without a byte order mark has NULs in (nearly) every other byte when it is mostly Latin script;
 * binary content has NULs scattered at both parities. A third of one parity with few at the other tells them apart.
 */
const MIN_NUL_SHARE_AT_ONE_PARITY = 1 / 3

/**
 * The encoding the file starts with, from the first HEAD_BYTES: the one a byte order mark names, else "utf-8"
 * (decoding later falls back to Windows-1252 when the bytes are not UTF-8, see DecodedText). Fails for binary
 * content and for text without a byte order mark that has NUL bytes (UTF-16 or UTF-32 without a BOM).
 */
export const sniffEncoding = (head: Uint8Array): TextEncoding => {
  const fromMark = encodingOfByteOrderMark(head)
  if (fromMark !== null) return fromMark
  const binaryFormat = knownBinaryFormat(head)
  if (binaryFormat !== null) throw binary(binaryFormat)
  const counts = countControlBytes(head)
  const nuls = counts.nulAtEvenOffsets + counts.nulAtOddOffsets
  if (nuls > 0) {
    const half = head.length / 2
    const fewControls = counts.otherControls <= head.length * MAX_CONTROL_SHARE
    const looksLikeUtf16 = Math.max(counts.nulAtEvenOffsets, counts.nulAtOddOffsets) >= half * MIN_NUL_SHARE_AT_ONE_PARITY &&
      Math.min(counts.nulAtEvenOffsets, counts.nulAtOddOffsets) <= half * MIN_NUL_SHARE_AT_ONE_PARITY / 4
    const looksLikeUtf32 = nuls >= half
    if (fewControls && (looksLikeUtf16 || looksLikeUtf32)) {
      throw new TabularError({
        reason: "unsupported_encoding",
        message: "The file looks like UTF-16 or UTF-32 text without a byte order mark (it has NUL bytes), " +
          `which cannot be read reliably. ${supportedEncodingsAdvice}`
      })
    }
    throw binary("it has NUL bytes")
  }
  if (counts.otherControls > head.length * MAX_CONTROL_SHARE) throw binary("it has many control characters")
  return "utf-8"
}

const binary = (what: string) =>
  new TabularError({
    reason: "unparseable_file",
    message: `The file is binary (${what}), not CSV or JSON text. Upload a CSV, JSON or NDJSON file; ` +
      "export spreadsheets as CSV UTF-8 first."
  })
