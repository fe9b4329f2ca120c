import { createHash } from "node:crypto"

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const base58Index = new Map([...base58Alphabet].map((character, index) => [character, index]))

const base58Decode = (text: string): Uint8Array | undefined => {
  let value = 0n
  for (const character of text) {
    const digit = base58Index.get(character)
    if (digit === undefined) return undefined
    value = value * 58n + BigInt(digit)
  }
  const bytes: Array<number> = []
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn))
    value >>= 8n
  }
  for (const character of text) {
    if (character !== "1") break
    bytes.unshift(0)
  }
  return Uint8Array.from(bytes)
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest()

/** Bitcoin P2PKH / P2SH (Base58Check: version byte 0x00 or 0x05, the first 4 bytes of a double SHA-256 as checksum). */
const isBase58CheckAddress = (value: string): boolean => {
  if (!/^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/.test(value)) return false
  const bytes = base58Decode(value)
  if (bytes === undefined || bytes.length !== 25 || (bytes[0] !== 0x00 && bytes[0] !== 0x05)) return false
  const checksum = sha256(sha256(bytes.subarray(0, 21)))
  return checksum.subarray(0, 4).equals(bytes.subarray(21))
}

/** BIP 173's alphabet of 5-bit words. */
export const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

/** BIP 173's checksum over 5-bit words (the human-readable part expanded first): 1 for a valid bech32 string. */
export const bech32Polymod = (values: ReadonlyArray<number>) => {
  let checksum = 1
  for (const value of values) {
    const top = checksum >>> 25
    checksum = ((checksum & 0x1ffffff) << 5) ^ value
    for (let bit = 0; bit < 5; bit++) if ((top >>> bit) & 1) checksum ^= generators[bit]!
  }
  return checksum >>> 0
}

/** Bitcoin SegWit `bc1` addresses: bech32 (constant 1) or bech32m (0x2bc830a3) checksum over the data part. */
const isBech32Address = (value: string): boolean => {
  const lower = value.toLowerCase()
  if (lower !== value && value.toUpperCase() !== value) return false
  if (!/^bc1[02-9ac-hj-np-z]{11,71}$/.test(lower)) return false
  const data = [...lower.slice(3)].map((character) => bech32Charset.indexOf(character))
  const expanded = [3, 3, 0, 2, 3, ...data] // "bc" expanded: high bits [3, 3], separator 0, low bits [2, 3]
  const checksum = bech32Polymod(expanded)
  return checksum === 1 || checksum === 0x2bc830a3
}

/**
 * Ethereum addresses: `0x` and 40 hex digits. Mixed-case addresses carry an EIP-55 checksum that needs Keccak-256,
 * which neither Node nor Deno ship; the shape alone is distinctive enough (no ordinary value is 0x + 40 hex).
 */
const isEthereumAddress = (value: string) => /^0x[0-9a-fA-F]{40}$/.test(value)

export const isCryptoWalletAddress = (value: string): boolean =>
  isEthereumAddress(value) || isBase58CheckAddress(value) || isBech32Address(value)
