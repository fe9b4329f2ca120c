/** Leading bytes of the binary formats people upload by mistake, with the name the error message uses. */
const signatures: ReadonlyArray<readonly [ReadonlyArray<number>, string]> = [
  [[0x50, 0x4b, 0x03, 0x04], "a ZIP archive (an .xlsx workbook is one)"],
  [[0x50, 0x4b, 0x05, 0x06], "an empty ZIP archive"],
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], "an Office 97-2003 document (such as an .xls workbook)"],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG image"],
  [[0xff, 0xd8, 0xff], "a JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "a GIF image"],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "a PDF document"],
  [[0x1f, 0x8b], "a gzip archive"],
  [[0x42, 0x5a, 0x68], "a bzip2 archive"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "an xz archive"],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], "a 7-Zip archive"],
  [[0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], "a RAR archive"],
  [[0x28, 0xb5, 0x2f, 0xfd], "a Zstandard archive"],
  [[0x50, 0x41, 0x52, 0x31], "a Parquet file"],
  [[0x41, 0x52, 0x52, 0x4f, 0x57, 0x31], "an Arrow file"],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00], "an SQLite database"],
  [[0x7f, 0x45, 0x4c, 0x46], "an executable"]
]

/** The kind of binary file these leading bytes belong to, or null when they match no known signature. */
export const knownBinaryFormat = (head: Uint8Array): string | null => {
  for (const [signature, name] of signatures) {
    if (signature.length <= head.length && signature.every((byte, i) => head[i] === byte)) return name
  }
  return null
}

export interface ControlByteCounts {
  readonly nulAtEvenOffsets: number
  readonly nulAtOddOffsets: number
  /** C0 controls other than tab, line feed, form feed, carriage return and escape, NUL excluded. */
  readonly otherControls: number
}

export const countControlBytes = (head: Uint8Array): ControlByteCounts => {
  let nulAtEvenOffsets = 0
  let nulAtOddOffsets = 0
  let otherControls = 0
  for (let i = 0; i < head.length; i++) {
    const byte = head[i]!
    if (byte >= 0x20) continue
    if (byte === 0) {
      if ((i & 1) === 0) nulAtEvenOffsets++
      else nulAtOddOffsets++
    } else if (byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) {
      otherControls++
    }
  }
  return { nulAtEvenOffsets, nulAtOddOffsets, otherControls }
}
