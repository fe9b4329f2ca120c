import { TabularError } from "../TabularError.ts"
import { supportedEncodingsAdvice } from "./supportedEncodings.ts"

export type BomEncoding = "utf-8-bom" | "utf-16le" | "utf-16be"

/**
 * The encoding a byte order mark announces, or null without one. UTF-32 marks are checked before UTF-16 ones because
 * the UTF-32 LE mark starts with the UTF-16 LE mark.
 */
export const encodingOfByteOrderMark = (head: Uint8Array): BomEncoding | null => {
  const [b0, b1, b2, b3] = head
  if (b0 === 0xff && b1 === 0xfe && b2 === 0x00 && b3 === 0x00) throw utf32("little-endian")
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0xfe && b3 === 0xff) throw utf32("big-endian")
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return "utf-8-bom"
  if (b0 === 0xff && b1 === 0xfe) return "utf-16le"
  if (b0 === 0xfe && b1 === 0xff) return "utf-16be"
  return null
}

const utf32 = (endianness: string) =>
  new TabularError({
    reason: "unsupported_encoding",
    message: `The file is encoded as UTF-32 (${endianness}), which is not supported. ${supportedEncodingsAdvice}`
  })
