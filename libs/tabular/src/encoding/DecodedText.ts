import { Buffer, isAscii } from "node:buffer"
import { TabularError } from "../TabularError.ts"
import type { TextEncoding } from "../records/RecordStream.ts"
import { supportedEncodingsAdvice } from "./supportedEncodings.ts"
import { firstUndefinedWindows1252Byte } from "./windows1252.ts"

const decoderLabel: Record<TextEncoding, string> = {
  "utf-8": "utf-8",
  "utf-8-bom": "utf-8",
  "utf-16le": "utf-16le",
  "utf-16be": "utf-16be",
  "windows-1252": "windows-1252"
}

/**
 * Streams the text of byte chunks, deciding between UTF-8 and Windows-1252 on the way, in one read.
 *
 * Why not validate the whole file first: that costs a second read of up to 100 MB from the blob store on every
 * pass (four reads per upload instead of two) to settle a question the bytes settle by themselves. A file without a
 * byte order mark is decoded as UTF-8 with a fatal decoder; when a chunk turns out not to be UTF-8:
 * - if everything before it was ASCII (counted for free: the decoded text is exactly as long as its bytes), the
 *   text already handed out reads the same in Windows-1252, so decoding simply switches to Windows-1252 from that
 *   chunk on, and `encoding` changes with it; this is how a Windows-1252 file with its first "é" deep down reads;
 * - otherwise valid multi-byte UTF-8 came first, so the file mixes encodings (or is UTF-8 with corrupt bytes) and
 *   no single decoding reads it right: it fails as unsupported_encoding rather than yield garbled text.
 * Windows-1252 text is checked for the five bytes that encoding leaves undefined, which real text never has.
 */
export class DecodedText {
  #encoding: TextEncoding
  #decoder: InstanceType<typeof TextDecoder>
  #bytesBefore = 0
  #allAsciiSoFar = true
  /**
   * The decoder holds no partial character and has seen the start of the text (and any byte order mark), so an
   * ASCII chunk may skip it. Set after a UTF-8 or Windows-1252 chunk that the decoder read to an ASCII last byte.
   */
  #decoderIdle = false
  /** The part of an ASCII chunk not handed out yet (see #nextAsciiPiece). */
  #asciiLeft: Uint8Array | undefined
  readonly #chunks: AsyncIterator<Uint8Array>

  constructor(chunks: AsyncIterator<Uint8Array>, encoding: TextEncoding) {
    this.#chunks = chunks
    this.#encoding = encoding
    this.#decoder = new TextDecoder(decoderLabel[encoding], { fatal: encoding === "utf-8" || encoding === "utf-8-bom" })
  }

  /** The encoding in use; it can only change from "utf-8" to "windows-1252", and is final at the end of the text. */
  get encoding(): TextEncoding {
    return this.#encoding
  }

  /** The next piece of text (possibly empty), or undefined at the end of the file. */
  async read(): Promise<string | undefined> {
    if (this.#asciiLeft !== undefined) return this.#nextAsciiPiece()
    const next = await this.#chunks.next()
    if (next.done === true) return this.#finish()
    const bytes = next.value
    const text = this.#decode(bytes)
    this.#bytesBefore += bytes.length
    return text
  }

  /** Stops reading the underlying bytes early (the consumer stopped, or the file failed to parse). */
  async close(): Promise<void> {
    this.#asciiLeft = undefined
    await this.#chunks.return?.()
  }

  #decode(bytes: Uint8Array): string {
    // ASCII reads the same in UTF-8 and Windows-1252, and its Latin-1 string is built by a copy: ~90 ms against
    // ~135 ms through the streaming TextDecoder for 100 MB in 256 KiB chunks (Node 20, CPU), on each pass.
    if (this.#decoderIdle && isAscii(bytes)) {
      this.#asciiLeft = bytes
      return this.#nextAsciiPiece()
    }
    const text = this.#decodeWithDecoder(bytes)
    this.#decoderIdle = this.#encoding !== "utf-16le" && this.#encoding !== "utf-16be" && bytes.length > 0 &&
      bytes[bytes.length - 1]! < 0x80
    return text
  }

  /**
   * The next ASCII piece, of at most ASCII_PIECE_BYTES: V8 puts a string of over ~128 KiB in its large-object
   * space, where making one cost ~6× more per byte (Node 20: 100 MB in 256 KiB pieces ~60 ms, in 64 KiB ~9 ms), and
   * the CSV parser copies each piece once more to join it to the end of the piece before.
   */
  #nextAsciiPiece(): string {
    const bytes = this.#asciiLeft!
    const piece = bytes.length <= ASCII_PIECE_BYTES ? bytes : bytes.subarray(0, ASCII_PIECE_BYTES)
    this.#asciiLeft = piece === bytes ? undefined : bytes.subarray(ASCII_PIECE_BYTES)
    return Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString("latin1")
  }

  #decodeWithDecoder(bytes: Uint8Array): string {
    if (this.#encoding === "windows-1252") return this.#decodeWindows1252(bytes)
    if (this.#encoding !== "utf-8" && this.#encoding !== "utf-8-bom") return this.#decoder.decode(bytes, { stream: true })
    let text: string
    try {
      text = this.#decoder.decode(bytes, { stream: true })
    } catch {
      if (this.#encoding === "utf-8-bom") throw invalidAfterUtf8Mark(this.#bytesBefore)
      if (!this.#allAsciiSoFar) throw mixedEncodings(this.#bytesBefore)
      this.#encoding = "windows-1252"
      this.#decoder = new TextDecoder("windows-1252")
      return this.#decodeWindows1252(bytes)
    }
    if (this.#allAsciiSoFar && text.length !== bytes.length) this.#allAsciiSoFar = false
    return text
  }

  #decodeWindows1252(bytes: Uint8Array): string {
    const undefinedAt = firstUndefinedWindows1252Byte(bytes)
    if (undefinedAt >= 0) throw neitherUtf8NorWindows1252(this.#bytesBefore + undefinedAt)
    return this.#decoder.decode(bytes, { stream: true })
  }

  #finish(): string | undefined {
    try {
      const rest = this.#decoder.decode()
      return rest === "" ? undefined : rest
    } catch {
      throw new TabularError({
        reason: "unsupported_encoding",
        message: `The file ends in the middle of a UTF-8 character (byte ${this.#bytesBefore}); ` +
          `it may be truncated or not UTF-8. ${supportedEncodingsAdvice}`
      })
    }
  }
}

const ASCII_PIECE_BYTES = 64 * 1024

const mixedEncodings = (chunkStart: number) =>
  new TabularError({
    reason: "unsupported_encoding",
    message: `The file starts as UTF-8 but has bytes that are not UTF-8 after byte ${chunkStart}: it mixes ` +
      `encodings or is damaged. ${supportedEncodingsAdvice}`
  })

const invalidAfterUtf8Mark = (chunkStart: number) =>
  new TabularError({
    reason: "unsupported_encoding",
    message: `The file starts with a UTF-8 byte order mark but has bytes that are not UTF-8 after byte ${chunkStart}. ` +
      supportedEncodingsAdvice
  })

const neitherUtf8NorWindows1252 = (offset: number) =>
  new TabularError({
    reason: "unsupported_encoding",
    message: `The file is neither UTF-8 nor Windows-1252 (byte ${offset} is undefined in Windows-1252). ` +
      supportedEncodingsAdvice
  })
