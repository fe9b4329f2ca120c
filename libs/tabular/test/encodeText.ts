export type Encoding = "utf-8" | "utf-8-bom" | "utf-16le" | "utf-16be" | "windows-1252"

/** Windows-1252 bytes 0x80–0x9F, by code point; the rest of the range is Latin-1. */
const windows1252High = new Map(
  [..."€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ"].map((char, index) => [char.codePointAt(0)!, 0x80 + index])
)

/** `text` in `encoding` (with a BOM where the encoding has one); undefined when Windows-1252 cannot hold it. */
export const encodeText = (text: string, encoding: Encoding): Uint8Array | undefined => {
  switch (encoding) {
    case "utf-8":
      return new TextEncoder().encode(text)
    case "utf-8-bom":
      return new TextEncoder().encode(`\uFEFF${text}`)
    case "utf-16le":
    case "utf-16be": {
      const bytes = new Uint8Array(2 + text.length * 2)
      const view = new DataView(bytes.buffer)
      const littleEndian = encoding === "utf-16le"
      view.setUint16(0, 0xfeff, littleEndian)
      for (let index = 0; index < text.length; index++) view.setUint16(2 + index * 2, text.charCodeAt(index), littleEndian)
      return bytes
    }
    case "windows-1252": {
      const bytes: Array<number> = []
      for (const char of text) {
        const code = char.codePointAt(0)!
        const byte = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : windows1252High.get(code)
        if (byte === undefined || (code >= 0x80 && code <= 0x9f)) return undefined
        bytes.push(byte)
      }
      return Uint8Array.from(bytes)
    }
  }
}
