/** Byte values Windows-1252 leaves undefined; text in that encoding (or ISO-8859-1 prose) never has them. */
export const firstUndefinedWindows1252Byte = (bytes: Uint8Array): number => {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!
    if (byte === 0x81 || byte === 0x8d || byte === 0x8f || byte === 0x90 || byte === 0x9d) return i
  }
  return -1
}
